/**
 * The 503 that makes the server deliver a chat reply again (the waiting execution has not
 * reached its wait yet) stays the node's own answer; a reply that resumed the execution and
 * started no run is answered through n8n (webhookResponse), without the message.
 */
import { answers, ASKED, executionStillRunning, optionsFor, s, useChatReplySetup, waitingRun } from '../nodes/chatReplySetup';
import { INSTANCE } from './helpers';

useChatReplySetup();

test('a reply the waiting execution is not ready for: 503 written by the node; the retry that resumes it is answered by n8n', async () => {
	await waitingRun(optionsFor({ message: 'Ready?' }));
	executionStillRunning(1);
	const first = await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'quick one', id: '3ABUSY00001' });
	expect(first?.attempts).toEqual([
		{ status: 503, responseBody: JSON.stringify({ message: 'The execution waiting for this reply is not ready yet; deliver again' }) },
	]);
	expect(s.harness.received.at(-1)?.answeredBy).toBe('node');
	const again = await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'quick one', id: '3ABUSY00001' });
	expect(again?.attempts).toEqual([{ status: 200, responseBody: JSON.stringify({ received: true, resumed: 1 }) }]);
	expect(s.harness.received.at(-1)?.answeredBy).toBe('n8n');
	expect(answers.map(({ answer }) => answer.workflowData?.[0][0].json.text)).toEqual(['quick one']);
	expect(s.harness.emitted).toEqual([]);
});
