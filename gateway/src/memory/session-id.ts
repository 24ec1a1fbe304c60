import { createHash } from 'node:crypto';
import { z } from 'zod';

/** Longest session id, in characters. */
export const MAX_SESSION_ID_CHARS = 200;

/**
 * The one shape of a session id a client may send, wherever it sends one (REST chat and
 * canvas, `/ws` chat frames, `/ws/chat` hello, the memory routes): 1 to 200 characters from a
 * small set, so an id can neither bloat the gateway nor smuggle control characters into logs.
 */
export const sessionIdSchema = z
  .string()
  .regex(/^[\w.:@=+-]{1,200}$/, 'must be 1 to 200 characters: letters, digits and _ . : @ = + -');

/**
 * The durable session identity of a sender on a channel: a deterministic function of
 * (channel, sender id), so it survives restarts and idle timeouts. Readable prefix, hashed
 * sender (sender ids can be phone numbers).
 */
export function sessionIdFor(channel: string, senderId: string): string {
  const digest = createHash('sha256')
    .update(`${channel}\u0000${senderId}`)
    .digest('hex')
    .slice(0, 16);
  const safeChannel =
    channel
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, '-')
      .slice(0, 24) || 'channel';
  return `${safeChannel}-${digest}`;
}
