/**
 * `[memory] cache_password_secret` applied to a Redis URL: the URL's own password wins; without
 * one the configured password is added (user `default` unless the URL names one). A URL that
 * does not parse is returned unchanged (the connection then reports it).
 */
export function redisUrlWithPassword(url: string, password: string): string {
  if (password === '') return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.password !== '') return url;
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/** True when a Redis URL (with the configured password applied) carries a password. */
export function redisUrlHasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
}
