import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { readFileAnswer, MAX_ANSWER_WITHOUT_FILE, type FileAnswer } from '../../shared/fileAnswer';
import { base64ProblemText, cleanFileName, cleanMimeType, maxFileBytes, tooLargeText } from '../../shared/files';
import type { AnswerReader } from '../../shared/transport';
import type { ItemParameters } from './parameters';
import type { BinaryOutput } from './types';

/**
 * The file of an answer (a downloaded medium, a QR code) as n8n binary data. The answer is
 * read as it streams in (fileAnswer.ts): the file is decoded on the way and refused as soon
 * as it is over the limit or not base64; the JSON of the item keeps everything but the file.
 */
export class FileOutput {
	private answer: FileAnswer | undefined;
	private readonly maxBytes: number;

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly params: ItemParameters,
		private readonly itemIndex: number,
		private readonly spec: BinaryOutput,
	) {
		this.maxBytes = spec.sizeLimit ? spec.sizeLimit.maxBytes(params) : maxFileBytes(undefined);
	}

	/** Given to the request: reads the 2xx answer and returns its JSON without the file. */
	readonly read: AnswerReader = async (stream, answerBytes) => {
		this.answer = await readFileAnswer(stream, {
			fileField: this.spec.dataField,
			dropFields: this.spec.dropFields ?? [],
			maxBytes: this.maxBytes,
			answerBytes,
		});
		return this.answer.ok ? this.answer.json : undefined;
	};

	/** Fails when the answer could not give a file it carried: too large, not base64, not JSON. */
	checkAnswer(): void {
		const answer = this.answer;
		if (!answer) return;
		if (!answer.ok) {
			if (answer.problem === 'tooLarge') this.tooLarge(tooLargeText(answer.fileBytes, answer.size, this.maxBytes));
			throw new NodeApiError(this.ctx.getNode(), { reason: answer.problem } as JsonObject, {
				message:
					answer.problem === 'notJson'
						? 'The server answered with something that is not JSON instead of the file'
						: `The server's answer holds more than ${MAX_ANSWER_WITHOUT_FILE / 1024 / 1024} MB besides the file`,
				description: 'The answer is not the one the route promises: check that the Base URL points at the API.',
				itemIndex: this.itemIndex,
			});
		}
		const problem = answer.file && !answer.file.ok ? answer.file.problem : undefined;
		if (problem?.kind === 'tooLarge') this.tooLarge(base64ProblemText(problem, this.maxBytes));
		if (problem?.kind === 'invalid') {
			this.params.fail(
				'Operation',
				`got a file from the server that is not valid base64 (${problem.reason.slice(0, 200)})`,
				'The server sent a broken file; nothing was output. Download it again, or check the server.',
			);
		}
	}

	private tooLarge(text: string): never {
		const label = this.spec.sizeLimit?.label;
		throw new NodeOperationError(this.ctx.getNode(), `The file is too large: ${text}${label ? ` set in "${label}"` : ''} [item ${this.itemIndex}]`, {
			itemIndex: this.itemIndex,
			description: label
				? `Raise "${label}" to take it: reading a file takes about 2.5 times its size in memory.`
				: 'The server sent a file far larger than this answer ever holds.',
		});
	}

	/** The item of one output record, with the answer's file as its binary data. */
	async itemOf(json: IDataObject): Promise<INodeExecutionData> {
		const { [this.spec.dataField]: _file, ...rest } = json;
		const file = this.answer?.ok && this.answer.file?.ok ? this.answer.file.data : undefined;
		if (!file) {
			if (this.spec.required) {
				this.params.fail('Operation', 'got no file from the server', 'The server answered without the file. Check that the message has media.');
			}
			return { json: rest };
		}
		// One file per answer: it goes to the first record only.
		this.answer = undefined;
		const propertyName = this.params.text('binaryPropertyName').trim();
		const mimeType = cleanMimeType(this.spec.mimeTypeField ? json[this.spec.mimeTypeField] : undefined) ?? this.spec.defaultMimeType;
		const fileName = cleanFileName(this.spec.fileNameField ? json[this.spec.fileNameField] : undefined) ?? this.spec.defaultFileName;
		return { json: rest, binary: { [propertyName]: await this.ctx.helpers.prepareBinaryData(file, fileName, mimeType) } };
	}
}
