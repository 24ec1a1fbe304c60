import { createHmac, timingSafeEqual } from 'node:crypto';

export const TIMESTAMP_HEADER = 'x-hearth-timestamp';
export const SIGNATURE_HEADER = 'x-hearth-signature';

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>." + body)>`: the signature of one delivery. */
export function signWebhook(secret: string, timestamp: number, body: Buffer | string): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `sha256=${mac.digest('hex')}`;
}

/** Headers for a signed delivery of `body` at `nowMs`. */
export function signedHeaders(secret: string, nowMs: number, body: string): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signWebhook(secret, timestamp, body),
  };
}

export type Verdict =
  { ok: true; signature: string; timestamp: number } | { ok: false; reason: string };

const header = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? undefined : value;

/**
 * Checks a delivery before anything parses it: a timestamp within `windowSeconds` of now, and
 * the signature over exactly the received bytes, compared in constant time.
 */
export function verifyWebhook(options: {
  secret: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  nowMs: number;
  windowSeconds: number;
}): Verdict {
  const stamp = header(options.headers[TIMESTAMP_HEADER]);
  const given = header(options.headers[SIGNATURE_HEADER]);
  if (stamp === undefined || given === undefined)
    return { ok: false, reason: `missing ${TIMESTAMP_HEADER} or ${SIGNATURE_HEADER}` };
  if (!/^\d{1,12}$/.test(stamp)) return { ok: false, reason: 'malformed timestamp' };
  const timestamp = Number(stamp);
  if (Math.abs(options.nowMs / 1000 - timestamp) > options.windowSeconds)
    return { ok: false, reason: 'timestamp outside the replay window' };
  const match = /^sha256=([0-9a-f]{64})$/.exec(given);
  const expected = Buffer.from(
    signWebhook(options.secret, timestamp, options.body).slice(7),
    'hex',
  );
  if (!match?.[1] || !timingSafeEqual(Buffer.from(match[1], 'hex'), expected))
    return { ok: false, reason: 'bad signature' };
  return { ok: true, signature: match[1], timestamp };
}
