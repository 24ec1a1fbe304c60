/**
 * The compiled workspaces must run the dependencies they declare. For every bare import in a
 * workspace's compiled JavaScript, this looks for the package the way Node does from that file
 * (`node_modules` folders from the file's folder upwards) and compares the version found with
 * the range in the workspace's package.json. A compiled file sits in another folder than its
 * source, so it can find another copy: dist/gateway/src/hub/address-policy.js found the root's
 * ipaddr.js 1.9.1 (hoisted for express) instead of gateway/node_modules/ipaddr.js 2.5.0.
 *
 * `node:` builtins and relative imports are not checked. The workspaces' own packages
 * (`@hearth/*`) must also resolve inside the compiled tree, not to the TypeScript sources.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { importSpecifiers } from './import-specifiers.ts';

interface Semver {
  satisfies(version: string, range: string, options: { includePrerelease: boolean }): boolean;
  validRange(range: string): string | null;
}
// semver is CommonJS without bundled types; only these two functions are used.
const semver = createRequire(import.meta.url)('semver') as Semver;

export interface CompiledWorkspace {
  /** Folder of the workspace's compiled files, relative to the root (`dist/gateway`). */
  readonly output: string;
  /** The workspace's package.json, relative to the root (`gateway/package.json`). */
  readonly manifest: string;
}

export interface ResolutionCheck {
  /** The repository root; every other path is relative to it. */
  readonly root: string;
  /** The compiled tree (`dist`), where the workspaces' own packages must resolve. */
  readonly outputRoot: string;
  readonly workspaces: readonly CompiledWorkspace[];
  /** Scope of the workspaces' own packages. */
  readonly ownScope: string;
}

export interface ResolutionProblem {
  /** The importing file, relative to the root. */
  readonly file: string;
  readonly specifier: string;
  /** What Node finds: `version (path)`, or why nothing fits. */
  readonly found: string;
  /** The range the workspace declares, or why there is none. */
  readonly declared: string;
}

interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

export async function checkResolution(check: ResolutionCheck): Promise<ResolutionProblem[]> {
  const problems: ResolutionProblem[] = [];
  for (const workspace of check.workspaces) {
    const manifest = JSON.parse(
      await readFile(join(check.root, workspace.manifest), 'utf8'),
    ) as Manifest;
    for (const file of await compiledFiles(join(check.root, workspace.output))) {
      const text = await readFile(file, 'utf8');
      for (const specifier of importSpecifiers(file, text).filter(isPackageImport)) {
        const problem = checkImport(check, manifest, file, specifier);
        if (problem !== undefined)
          problems.push({ file: relative(check.root, file), specifier, ...problem });
      }
    }
  }
  return problems;
}

/** One line per problem, for the build's error output. */
export function describeProblem(problem: ResolutionProblem): string {
  return `${problem.file}: '${problem.specifier}' finds ${problem.found}; declared ${problem.declared}`;
}

function checkImport(
  check: ResolutionCheck,
  manifest: Manifest,
  file: string,
  specifier: string,
): Pick<ResolutionProblem, 'found' | 'declared'> | undefined {
  const name = packageName(specifier);
  const range =
    manifest.dependencies?.[name] ??
    manifest.optionalDependencies?.[name] ??
    manifest.peerDependencies?.[name];
  const folder = findPackageFolder(realpathSync(file), name);
  if (range === undefined)
    return { found: describeFolder(check.root, folder), declared: 'nowhere (not a dependency)' };
  if (folder === undefined) {
    if (manifest.optionalDependencies?.[name] !== undefined) return undefined;
    return { found: 'no package', declared: range };
  }
  const version = readVersion(folder);
  const where = relative(check.root, folder);
  if (version === undefined) return { found: `no version (${where})`, declared: range };
  if (semver.validRange(range) === null)
    return { found: `${version} (${where})`, declared: `${range} (not a version range)` };
  if (!semver.satisfies(version, range, { includePrerelease: true }))
    return { found: `${version} (${where})`, declared: range };
  if (name.startsWith(check.ownScope) && !isInside(join(check.root, check.outputRoot), folder))
    return {
      found: `${version} (${where}, outside ${check.outputRoot}/)`,
      declared: `${range}, compiled in ${check.outputRoot}/`,
    };
  return undefined;
}

/** Compiled JavaScript files under `folder`; linked node_modules folders are not entered. */
async function compiledFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  return entries
    .filter((entry) => /\.[mc]?js$/.test(entry) && !entry.split(sep).includes('node_modules'))
    .sort()
    .map((entry) => join(folder, entry));
}

function isPackageImport(specifier: string): boolean {
  if (isBuiltin(specifier)) return false;
  if (specifier.startsWith('.') || specifier.startsWith('#') || isAbsolute(specifier)) return false;
  return !/^[a-z][a-z0-9+.-]*:/i.test(specifier); // file:, data:, https: URLs
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/**
 * The package folder Node's resolver takes for `name` imported from `file`: the first
 * `node_modules/<name>` folder from the file's folder upwards, with links followed.
 */
function findPackageFolder(file: string, name: string): string | undefined {
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return realpathSync(candidate);
    if (dirname(folder) === folder) return undefined;
  }
}

function readVersion(folder: string): string | undefined {
  const manifest = join(folder, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
}

function describeFolder(root: string, folder: string | undefined): string {
  if (folder === undefined) return 'no package';
  return `${readVersion(folder) ?? 'no version'} (${relative(root, folder)})`;
}

function isInside(parent: string, path: string): boolean {
  const rest = relative(realpathSync(parent), path);
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
}
