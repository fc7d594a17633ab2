/**
 * `historyQuirks`: the stored history as odd servers keep and answer it, for the readers of a
 * chat's history to be tried against — a clock off by seconds, `messageTimestamp` in
 * milliseconds, Find Messages ignoring `where` or answering extra entries. Until reset; `{}`
 * plays the real server again.
 */
import { call, withVersion } from './helpers';

const ANA = '5511988887777@s.whatsapp.net';
const BRUNO = '5511977776666@s.whatsapp.net';
const anasChat = { where: { key: { remoteJid: ANA } } };

interface Page {
	messages: { records: Array<{ key?: { id: string; remoteJid: string }; messageTimestamp?: number } | string> };
}

describe('Sandbox history quirks', () => {
	it('each quirk changes Find Messages as it says, and reset plays the real server again', async () => {
		await withVersion('2.3.7', async (sb) => {
			await sb.injectMessage('demo', { from: '5511988887777', id: 'A1', text: 'hi' });
			await sb.injectMessage('demo', { from: '5511977776666', id: 'B1', text: 'hello' });
			const at = Math.floor(sb.chat[0].at / 1000);
			const find = async () => ((await call(sb, '/chat/findMessages/demo', anasChat)).body as Page).messages.records;

			expect((await find()).map((record) => typeof record === 'object' && [record.key?.id, record.messageTimestamp])).toEqual([['A1', at]]);

			sb.historyQuirks({ clockSkewMs: -5_000 });
			expect((await find()).map((record) => typeof record === 'object' && record.messageTimestamp)).toEqual([Math.floor((sb.chat[0].at - 5_000) / 1000)]);

			sb.historyQuirks({ milliseconds: true });
			expect((await find()).map((record) => typeof record === 'object' && record.messageTimestamp)).toEqual([sb.chat[0].at]);

			sb.historyQuirks({ ignoresWhere: true });
			expect((await find()).map((record) => typeof record === 'object' && record.key?.remoteJid)).toEqual([BRUNO, ANA]);

			sb.historyQuirks({ extraEntries: ['junk'] });
			expect((await find()).map((record) => (typeof record === 'object' ? record.key?.id : record))).toEqual(['junk', 'A1']);

			sb.reset();
			await sb.injectMessage('demo', { from: '5511988887777', id: 'A2', text: 'again' });
			expect((await find()).map((record) => typeof record === 'object' && record.key?.id)).toEqual(['A2']);
		});
	});
});
