import { validationError } from '../errors.ts';
import type { SkillKind } from '../skills/ports.ts';

/**
 * A hub package name: lowercase letters, digits, `_` and `-`, starting with a letter, at most
 * 32 characters (a skill name, lowercase only). No dot, slash, backslash, percent sign or
 * non-ASCII letter can pass, so a name is always one plain folder under `{data_dir}/skills`
 * and never a path.
 */
export const PACKAGE_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** Names the hub's own routes use (`GET /hub/status` …): never a package's. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  'packages',
  'install',
  'search',
  'scan',
  'status',
]);

export const NAME_RULE =
  'must be 1 to 32 lowercase letters, digits, "_" or "-", starting with a letter, and not a hub route (packages, install, search, scan, status)';

export function isPackageName(name: string): boolean {
  return PACKAGE_NAME.test(name) && !RESERVED_NAMES.has(name);
}

const EXTENSIONS: ReadonlyArray<readonly [suffix: string, kind: SkillKind]> = [
  ['.mjs', 'mjs'],
  ['.js', 'mjs'],
  ['.py', 'py'],
];

/** The kind a URL's last path segment names (`.py` → py, `.mjs`/`.js` → mjs), if any. */
export function kindFromUrl(url: URL): SkillKind | undefined {
  if (url.protocol !== 'https:') return undefined;
  const last = lastSegment(url);
  return EXTENSIONS.find(([suffix]) => last.endsWith(suffix))?.[1];
}

/**
 * The name a package gets when none is given: the URL's last path segment without its
 * extension, lowercased. A segment that does not make a valid name as it stands (encoded
 * characters, dots, non-ASCII) is refused rather than cleaned up: the caller names it.
 */
export function nameFromUrl(url: URL): string {
  const last = url.protocol === 'https:' ? lastSegment(url) : '';
  const suffix = EXTENSIONS.find(([ext]) => last.endsWith(ext))?.[0] ?? '';
  const name = last.slice(0, last.length - suffix.length).toLowerCase();
  if (!isPackageName(name))
    throw validationError(
      `name: no valid package name in the URL's last path segment; give one (a name ${NAME_RULE})`,
    );
  return name;
}

/** The raw (still percent-encoded) last segment of the path. */
function lastSegment(url: URL): string {
  const segments = url.pathname.split('/');
  return segments[segments.length - 1] ?? '';
}
