/**
 * The self-contained chat page served at GET /chat (inline CSS and JS, no external assets).
 *
 * A person picks an instance, types a message as a contact (the "from" number) and presses
 * Send, or attaches a photo, a voice note or a document (📎; the typed text is a photo's or a
 * document's caption): the page POSTs /_sandbox/messages (a file as `media`, as `cli.ts send
 * --image/--file` does), the sandbox delivers MESSAGES_UPSERT to the instance's webhook (e.g.
 * an n8n trigger) as the server would, the file in it when the webhook asks for base64, and
 * everything the workflow sends back through the interface shows up live via the SSE stream
 * GET /_sandbox/chat/stream.
 *
 * What the workflow sends is drawn the way a phone would show it: texts (with the quoted
 * message), lists (sections and rows), buttons, locations (with an OpenStreetMap link),
 * status posts (in their background colour). Reactions show as a badge on the message they
 * react to; edits replace the edited text (marked "edited"); presence ("typing…"), edits,
 * reactions and archiving also show as small centred notices. Media of both directions show
 * from the stored file (GET /_sandbox/media/…): images and stickers inline, video and audio
 * with players, documents by name with a link; contacts as cards, polls with their options. A banner warns when the instance has no webhook registered (the page
 * polls GET /_sandbox/state every few seconds).
 *
 * A contact known by LID: a LID next to the number (#lid) goes with the message as `lid`, so
 * the sandbox delivers the key the chosen server version gives such a contact; replies to its
 * phone JID or to its LID show in its conversation (a bubble's data-contact: the phone JID,
 * the LID of a contact known only by it, or the group).
 *
 * Texts and captions are formatted as WhatsApp formats them (*bold*, _italic_, ~strike~,
 * ```monospace```, `inline code`; chat/format.js builds DOM nodes, never HTML) and their links
 * open in a new tab (n8n's waiting pages of Send and Wait for Response). What WhatsApp lets a
 * person tap is tappable — reply buttons, list rows, poll options — and a tap sends that
 * choice as the contact the message went to; a plain text's numbered choices are text, and
 * the person types the answer (a reply in the chat, as Send and Wait's Reply in the Chat
 * waits for).
 *
 * Stable hooks for browser tests: #instance, #from, #lid, #pushName, #message, #send, #reset,
 * #messages, #status (connection state of the stream: "live" once connected), #hint (the
 * no-webhook banner), .bubble.in / .bubble.out (data-testid bubble-in / bubble-out,
 * data-kind, data-seq, data-message-id, data-contact), .bubble .content (the readable text of a bubble),
 * .bubble .meta (time, "✓ delivered" / "✗ <reason>" on incoming bubbles), .reactions,
 * .bubble a.link (data-testid link), .bubble button.reply-choice (data-testid choice), #attach
 * (data-testid attach) with its menu #attach-menu (attach-photo, attach-voice,
 * attach-document), the file inputs #file-photo, #file-voice, #file-document, #scan ("Scan QR
 * code", shown while the instance is connecting), #chats (data-testid chats) with #chat-all
 * ("All chats", the default) and one button.chat-row per conversation (data-testid chat,
 * data-contact; .active when open: only its bubbles show, and #from / #lid write as it).
 *
 * The page is files in ./chat/: page.html (the markup), page.css, and the browser scripts in
 * CHAT_SCRIPTS (contacts.js: who an entry belongs to, phone, LID or group; format.js: WhatsApp's
 * text formatting; bubbles.js: how an entry is drawn; chats.js: one chat per contact, the list
 * #chats to switch between them; page.js: the live stream, sending and attaching, startup). The scripts are plain
 * JavaScript checked by TypeScript through `// @ts-check` and chat/tsconfig.json, and linted as
 * served; test/sandbox/chatPageSource.test.ts runs both. They are put together into one
 * self-contained response: keep the page free of `<script src=` / `<link href=` (the sandbox
 * tests check it).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const CHAT_DIR = path.join(__dirname, 'chat');

/** The page's scripts in the order they run: each uses what the ones before it define. */
export const CHAT_SCRIPTS = ['contacts.js', 'format.js', 'bubbles.js', 'chats.js', 'page.js'] as const;

const read = (name: string) => fs.readFileSync(path.join(CHAT_DIR, name), 'utf8');

/**
 * The page's scripts as one, each in its turn inside one function: their top-level names are
 * shared between them as the single script's were, and none lands on `window`. `where` names
 * the file and line a line of the result comes from.
 */
export function chatScript(): { text: string; where: (line: number) => string } {
	const parts: Array<{ file: string; first: number; lines: number }> = [];
	let next = 2; // line 1 opens the function
	const sources = CHAT_SCRIPTS.map((file) => {
		const source = read(file).replace(/\n?$/, '\n');
		if (/<\/script/i.test(source)) throw new Error(`chat/${file} must not contain "</script": it is served inline`);
		const lines = source.split('\n').length - 1;
		parts.push({ file, first: next, lines });
		next += lines;
		return source;
	});
	const text = `(function () {\n${sources.join('')}})();\n`;
	const where = (line: number) => {
		const part = parts.find(({ first, lines }) => line >= first && line < first + lines);
		return part ? `${part.file}:${line - part.first + 1}` : `(wrapper):${line}`;
	};
	return { text, where };
}

/** page.html with page.css and the scripts in place of its two placeholders. */
function assemble(): string {
	const html = read('page.html');
	const pieces: Array<[string, string]> = [
		['<style>/*STYLE*/</style>', `<style>${read('page.css')}</style>`],
		['<script>/*SCRIPT*/</script>', `<script>${chatScript().text}</script>`],
	];
	return pieces.reduce((page, [placeholder, content]) => {
		if (!page.includes(placeholder)) throw new Error(`chat/page.html has no ${placeholder}`);
		// a function, so `$` in the content is not read as a replacement pattern
		return page.replace(placeholder, () => content);
	}, html);
}

export const CHAT_PAGE_HTML = assemble();
