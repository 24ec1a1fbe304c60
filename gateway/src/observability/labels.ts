/**
 * Label values come from a fixed set, never straight from a request: a free-form value per
 * request would grow `/metrics` (and the usage report) without bound.
 */
export const OTHER_LABEL = 'other';

/** The channels a message can arrive on (REST defaults to `api`); anything else is `other`. */
export const KNOWN_CHANNELS: ReadonlySet<string> = new Set([
  'api',
  'rest',
  'ws',
  'canvas',
  'web',
  'cli',
  'voice',
  'telegram',
  'discord',
  'slack',
  'matrix',
  'whatsapp',
  'signal',
  'email',
  'sms',
  'imessage',
  'teams',
  'mattermost',
  'irc',
  'webhook',
]);

export function channelLabel(channel: string): string {
  const normalised = channel.toLowerCase();
  return KNOWN_CHANNELS.has(normalised) ? normalised : OTHER_LABEL;
}
