import { singleFileSend } from './media';

export const sendAudio = singleFileSend({
	value: 'sendAudio',
	name: 'Send Voice Note',
	action: 'Send a voice note',
	description: 'Send an audio file as a voice note (played in the chat like a recording)',
	path: '/message/sendWhatsAppAudio',
	field: 'audio',
	kind: 'audio',
	what: 'audio file',
});
