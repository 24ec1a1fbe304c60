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

/** `<channel>-<16 hex digits of sha256(hashed)>`: a readable prefix, the rest hashed. */
function derive(channel: string, hashed: string): string {
  const digest = createHash('sha256').update(hashed).digest('hex').slice(0, 16);
  const safeChannel =
    channel
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, '-')
      .slice(0, 24) || 'channel';
  return `${safeChannel}-${digest}`;
}

/**
 * The durable session identity of a sender on a channel: a deterministic function of
 * (channel, sender id), so it survives restarts and idle timeouts. Readable prefix, hashed
 * sender (sender ids can be phone numbers).
 */
export function sessionIdFor(channel: string, senderId: string): string {
  return derive(channel, `${channel}\u0000${senderId}`);
}

/**
 * The session of one member of a group chat on a channel: each member has a conversation and
 * memory of their own in the group (spec rule 8: from the channel and the sender), never shared
 * with the other members and kept apart from the member's direct chat with the bot (whose
 * history a reply in the group would otherwise show the group). Deterministic, like
 * `sessionIdFor`, and never equal to one of its ids: what is hashed starts with a NUL, where a
 * channel name (what `sessionIdFor` hashes first) never does.
 */
export function groupSessionIdFor(channel: string, groupId: string, senderId: string): string {
  return derive(channel, `\u0000group\u0000${channel}\u0000${groupId}\u0000${senderId}`);
}
