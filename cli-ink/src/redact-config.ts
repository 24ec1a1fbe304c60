import { redactSecrets, type HearthConfig } from '@hearth/gateway';

export const REDACTED = '(set)';

/**
 * A printable copy of `config`: every secret key (`api_key`, `*_api_key`) replaced by the
 * gateway's marker, and the password of any URL value (`postgresql://user:pw@host`,
 * `redis://:pw@host`) masked too.
 */
export function redactConfig(config: HearthConfig): Record<string, Record<string, unknown>> {
  const redacted = redactSecrets(config);
  for (const section of Object.values(redacted)) {
    for (const [key, value] of Object.entries(section)) {
      if (typeof value === 'string') section[key] = maskUrlPassword(value);
    }
  }
  return redacted;
}

function maskUrlPassword(value: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/@:]*:)([^/@]*)@/i.exec(value);
  if (!match?.[1] || !match[2]) return value;
  return `${match[1]}${REDACTED}@${value.slice(match[0].length)}`;
}
