export const REDACTED = 'REDACTED';

const secretNames = new Set([
  'key',
  'api_key',
  'api-key',
  'apikey',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'secret',
  'client_secret',
  'password',
  'passwd',
  'pwd',
  'sig',
  'signature',
  'credential',
]);

const secretPatterns = [
  /^x-amz-/,
  /^x-goog-/,
  /^auth/,
  /token$/,
  /secret/,
  /password/,
  /[-_.]key$/,
  /apikey$/,
  /signature$/,
];

/** Whether a query parameter name (already decoded) looks like it carries a secret. */
export function isSecretParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return secretNames.has(lower) || secretPatterns.some((pattern) => pattern.test(lower));
}

/** Secrets that some APIs carry in the path rather than the query. */
const pathRules: { host?: RegExp; pattern: RegExp; replacement: string }[] = [
  // Telegram Bot API: /bot<id>:<token>/method and /file/bot<id>:<token>/path
  { pattern: /\/bot\d+:[A-Za-z0-9_-]+/g, replacement: `/bot${REDACTED}` },
  // Discord webhooks: /api[/v10]/webhooks/<id>/<token>
  {
    pattern: /(\/api\/(?:v\d+\/)?webhooks\/[^/?#]+\/)[^/?#]+/g,
    replacement: `$1${REDACTED}`,
  },
  // Slack incoming webhooks: hooks.slack.com/services/<team>/<bot>/<secret>
  {
    host: /^hooks\.slack\.com$/i,
    pattern: /(\/services\/[^/?#]+\/[^/?#]+\/)[^/?#]+/g,
    replacement: `$1${REDACTED}`,
  },
];

const schemeAndAuthority = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i;

/**
 * The URL as it may be stored in the audit log: userinfo removed, the value of every
 * secret-looking query parameter replaced by `REDACTED` (`?key=abc` → `?key=REDACTED`), known
 * path-embedded tokens replaced, the fragment dropped (it is never sent). Works on the raw
 * string, so everything else is kept byte for byte, and never throws.
 */
export function redactUrl(url: string): string {
  const withoutFragment = url.split('#', 1)[0] ?? '';
  const queryAt = withoutFragment.indexOf('?');
  const base = queryAt === -1 ? withoutFragment : withoutFragment.slice(0, queryAt);
  const query = queryAt === -1 ? null : withoutFragment.slice(queryAt + 1);
  return redactBase(base) + (query === null ? '' : `?${redactQuery(query)}`);
}

function redactBase(base: string): string {
  let host = '';
  const withoutUserinfo = base.replace(
    schemeAndAuthority,
    (_match, scheme: string, authority: string) => {
      const hostPart = authority.slice(authority.lastIndexOf('@') + 1);
      host = hostPart.replace(/:\d*$/, '');
      return scheme + hostPart;
    },
  );
  let redacted = withoutUserinfo;
  for (const rule of pathRules) {
    if (rule.host && !rule.host.test(host)) continue;
    redacted = redacted.replace(rule.pattern, rule.replacement);
  }
  return redacted;
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      return isSecretParameter(decodeName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

function decodeName(name: string): string {
  const spaced = name.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
