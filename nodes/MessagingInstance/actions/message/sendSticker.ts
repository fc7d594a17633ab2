import { singleFileSend } from './media';

export const sendSticker = singleFileSend({
	value: 'sendSticker',
	name: 'Send Sticker',
	action: 'Send a sticker',
	description: 'Send an image (WebP, PNG or JPEG) as a sticker',
	path: '/message/sendSticker',
	field: 'sticker',
	kind: 'image',
	carriesMessageId: true,
	what: 'sticker image',
});
