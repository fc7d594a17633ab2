/** What the server's records carry: timestamps and ids in the form Prisma gives them. */
import { createHash } from 'crypto';

export const now = () => new Date().toISOString();

/** A stable id like the server's (Prisma cuid), made from what the record belongs to. */
export const cuid = (...parts: string[]) => `cm${createHash('sha1').update(parts.join('|')).digest('hex').slice(0, 23)}`;
