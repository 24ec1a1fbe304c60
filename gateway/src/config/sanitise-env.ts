/**
 * The one environment sanitiser for every child process the gateway starts (shell commands,
 * the browser, terminals): a child never inherits a provider key or any configured secret.
 * A variable is dropped when its NAME looks secret or when its VALUE contains a configured
 * secret value (or an obvious credential: a well-known token format, a URL with a password).
 * The basic variables a program needs (PATH, HOME, LANG, LC_*, TERM, TZ, USER, SHELL, TMPDIR)
 * are never dropped by name.
 */

/** Never dropped by name (a value that contains a secret still drops them). */
const ALWAYS_KEPT = new Set(['PATH', 'HOME', 'LANG', 'TERM', 'TZ', 'USER', 'SHELL', 'TMPDIR']);

/** `HEARTH_*` variables a child may see; every other `HEARTH_*` is dropped. */
export const HEARTH_SAFE_NAMES: ReadonlySet<string> = new Set(['HEARTH_LOG_LEVEL']);

/** Exact names (upper-cased) that carry credentials or hand out access. */
const SECRET_NAMES = new Set([
  'GOOGLE_APPLICATION_CREDENTIALS',
  'NPM_TOKEN',
  'GH_TOKEN',
  'GITHUB_TOKEN',
  'NODE_AUTH_TOKEN',
  'SSH_AUTH_SOCK',
  'GPG_AGENT_INFO',
  'KUBECONFIG',
  'DOCKER_HOST',
  'DOCKER_CONFIG',
  'DOCKER_AUTH_CONFIG',
  'DATABASE_URL',
  'PGPASSFILE',
  'NETRC',
  'XAUTHORITY',
]);

/** Name patterns, matched against the upper-cased name. */
const SECRET_NAME_PATTERNS: readonly RegExp[] = [
  /(^|_)KEYS?(_|$)/, // *_KEY, *_API_KEY, *_KEY_ID, KEY
  /API_?KEY/,
  /PRIVATE_?KEY/,
  /ACCESS_?KEY/,
  /TOKEN/,
  /SECRET/,
  /PASSWORD/,
  /PASSWD/,
  /PASSPHRASE/,
  /_PWD$/,
  /(^|_)PASS$/,
  /CREDENTIAL/,
  /AUTH(?!OR)/, // …_AUTH, OAUTH_…; not GIT_AUTHOR_* (XAUTHORITY is listed by name)
  /COOKIE/,
  /(^|_)PAT$/,
  /_DSN$/,
  /^AWS_/,
  /^AZURE_/,
  /^OP_/, // 1Password CLI and Connect
  /^VAULT_/,
  /^GCP_/,
  /^CLOUDSDK_/,
];

/** Values that are credentials whatever their variable is called. */
const SECRET_VALUE_PATTERNS: readonly RegExp[] = [
  /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i, // scheme://user:password@host
  /\bsk-[A-Za-z0-9_-]{20,}/, // OpenAI, Anthropic (sk-ant-…), DeepSeek, …
  /\bgh[pousr]_[A-Za-z0-9]{30,}/, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{20,}/, // GitLab
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/, // Slack
  /\bAKIA[0-9A-Z]{16}\b/, // AWS access key id
  /\bnpm_[A-Za-z0-9]{36}\b/,
  /\bhf_[A-Za-z0-9]{30,}/, // Hugging Face
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

/** Secret values shorter than this are not matched by value (too many false positives). */
export const MIN_SECRET_VALUE_LENGTH = 4;

const VALID_NAME = /^[^=\0]+$/;

/** Why a variable name is considered secret, or null when it is not. */
export function secretNameReason(name: string): string | null {
  const upper = name.toUpperCase();
  if (ALWAYS_KEPT.has(upper) || upper.startsWith('LC_')) return null;
  if (upper.startsWith('HEARTH_')) return HEARTH_SAFE_NAMES.has(upper) ? null : 'HEARTH_*';
  if (SECRET_NAMES.has(upper)) return upper;
  const pattern = SECRET_NAME_PATTERNS.find((candidate) => candidate.test(upper));
  return pattern ? pattern.source : null;
}

/** Why a value is considered secret, or null when it is not. */
export function secretValueReason(value: string, secretValues: readonly string[]): string | null {
  for (const secret of secretValues) {
    if (secret.length >= MIN_SECRET_VALUE_LENGTH && value.includes(secret)) {
      return 'contains a configured secret';
    }
  }
  const pattern = SECRET_VALUE_PATTERNS.find((candidate) => candidate.test(value));
  return pattern ? 'looks like a credential' : null;
}

export interface SanitisedEnv {
  env: Record<string, string>;
  /** Names dropped, with the reason (never the value): for a debug log line. */
  dropped: { name: string; reason: string }[];
}

/** Like sanitiseEnv, and says what was dropped and why. */
export function sanitiseEnvWithReport(
  env: Record<string, string | undefined>,
  secretValues: readonly string[],
): SanitisedEnv {
  const kept: [string, string][] = [];
  const dropped: { name: string; reason: string }[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!VALID_NAME.test(name) || value.includes('\0')) {
      dropped.push({ name, reason: 'invalid name or value' });
      continue;
    }
    const reason = secretNameReason(name) ?? secretValueReason(value, secretValues);
    if (reason === null) kept.push([name, value]);
    else dropped.push({ name, reason });
  }
  return { env: Object.fromEntries(kept), dropped };
}

/** The environment a child process may inherit: `env` minus everything secret. */
export function sanitiseEnv(
  env: Record<string, string | undefined>,
  secretValues: readonly string[],
): Record<string, string> {
  return sanitiseEnvWithReport(env, secretValues).env;
}
