/**
 * What looks like a secret in a gated call (its command line and arguments as the gate sees
 * them): a configured secret value (raw, base64 or hex), or a credential of a well-known shape
 * (provider API keys, GitHub, Slack, AWS, Google and Telegram tokens, private-key blocks,
 * JWTs). A call that carries one is never auto-approved: running it could send the secret to
 * a destination the owner did not choose (an external MCP tool, a host a command reaches), so
 * the owner is asked, and the approval says what was seen, never the secret itself.
 */
import type { UntrustedSource } from './untrusted-sources.ts';

/** Configured values shorter than this are not looked for (they would match by chance). */
const MIN_SECRET_CHARS = 8;

const SHAPES: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'an Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  { name: 'an API key (sk-…)', pattern: /\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}/ },
  {
    name: 'a GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/,
  },
  { name: 'a Slack token', pattern: /\bxox[abpors]-[A-Za-z0-9-]{10,}/ },
  { name: 'an AWS access key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { name: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/ },
  { name: 'a private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  {
    name: 'a JSON Web Token',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/,
  },
  { name: 'a Telegram bot token', pattern: /(?<![0-9])\d{8,10}:AA[A-Za-z0-9_-]{30,}/ },
];

/** `sk-p…12` style: enough to recognise, never the value. */
function redact(value: string): string {
  if (value.length <= 8) return '…';
  return `${value.slice(0, 4)}…${value.slice(-2)}`;
}

/** The forms a configured secret may take on a command line. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [
    secret,
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
  ];
}

/** The secrets `text` carries, as sources an approval names (kind `secret`). */
export function secretsIn(text: string, configured: readonly string[]): UntrustedSource[] {
  const found: UntrustedSource[] = [];
  for (const secret of configured) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    if (encodings(secret).some((form) => text.includes(form))) {
      found.push({ kind: 'secret', name: 'a configured secret', excerpt: redact(secret) });
    }
  }
  for (const { name, pattern } of SHAPES) {
    const match = pattern.exec(text);
    if (match && !found.some((source) => source.name === name))
      found.push({ kind: 'secret', name, excerpt: redact(match[0]) });
  }
  // One credential may fit two shapes (sk-ant-… is also sk-…): keep the more precise.
  return found.filter(
    (source, index) =>
      !(
        source.name === 'an API key (sk-…)' &&
        found.some((other, at) => at !== index && other.name === 'an Anthropic API key')
      ),
  );
}
