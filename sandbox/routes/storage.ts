/**
 * The S3 media store on 2.3.7 / 2.4 (`integrations/storage/s3`: its routes, schema and
 * service). One entry per route, like the other files of this folder.
 */
import { createHash } from 'crypto';
import { badRequest } from '../http';
import { str } from '../schemas';
import type { RouteContext, RouteDef } from '../types';
import { notEmpty } from './profile';
import { cuid, now } from './records';

/** The S3 record of a stored file: every instance's (the route does not limit by instance). */
function mediaRecords(ctx: RouteContext): Array<Record<string, unknown>> {
	return ctx.media.all().map((m) => {
		const extension = m.mimetype.split('/')[1]?.split(';')[0] ?? 'bin';
		return {
			id: cuid('media', m.instance, m.messageId),
			fileName: `${m.instance}/${m.mediaType}/${m.messageId}.${extension}`,
			type: m.mediaType,
			mimetype: m.mimetype,
			createdAt: now(),
			Message: { key: { id: m.messageId, fromMe: !m.incoming }, messageType: m.mediaType },
		};
	});
}

export const storageRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/s3/getMedia/{instance}' },
		schema: {
			v2: { type: 'object', properties: { id: str, type: str, messageId: { type: 'integer' } }, when: [notEmpty('id', 'type', 'messageId')] },
		},
		reply: (ctx) => {
			const { id, type, messageId } = ctx.body as { id?: string; type?: string; messageId?: number };
			const found = mediaRecords(ctx).filter((m) => (id === undefined || m.id === id) && (type === undefined || m.type === type) && messageId === undefined);
			if (found.length === 0) return badRequest(['Media not found']);
			return { status: 201, body: found };
		},
	},
	{
		method: 'POST',
		path: { v2: '/s3/getMediaUrl/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { id: { type: 'string', pattern: '\\d+', minLength: 1 }, expiry: { type: 'string', pattern: '\\d+', minLength: 1 } },
				required: ['id'],
				when: [notEmpty('id')],
			},
		},
		reply: (ctx) => {
			const media = mediaRecords(ctx).find((m) => m.id === ctx.body.id);
			if (!media) return badRequest(['Media not found']);
			// the schema let only text through, and the S3 client's presignedGetObject takes only a number
			if (ctx.body.expiry !== undefined) return badRequest(['expires should be of type "number"']);
			const expiry = '604800';
			const signature = createHash('sha256').update(`${String(media.fileName)}|${expiry}`).digest('hex');
			const mediaUrl = `https://s3.sandbox.invalid/evolution/${String(media.fileName)}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=${expiry}&X-Amz-Signature=${signature}`;
			return { status: 200, body: { mediaUrl, ...media } };
		},
	},
];
