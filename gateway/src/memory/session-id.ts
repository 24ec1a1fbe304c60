import { createHash } from 'node:crypto';

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
