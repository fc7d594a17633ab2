import { singleFileSend } from './media';

export const sendVideoNote = singleFileSend({
	value: 'sendVideoNote',
	name: 'Send Video Note',
	action: 'Send a video note',
	description: 'Send a video as a round video note',
	path: '/message/sendPtv',
	field: 'video',
	kind: 'video',
	carriesMessageId: true,
	what: 'video',
});
