/**
 * The gateway's entry point as a bundle: dist/gateway/src/main.js, compiled module by module,
 * is replaced by one module holding it and everything it loads at start, with each dynamic
 * import a chunk of its own beside it (`bundled-<name>-<hash>.js`, loaded on first use as
 * before). Loading ~800 modules one by one costs Node's loader a resolution, a package.json
 * lookup and a compile each; the bundle cut the CPU to /ready by about a fifth. Every other
 * compiled module stays where it is: worker threads, the skill host's runtime and the CLI
 * load those.
 *
 * What is bundled behaves as it did:
 * - `import.meta.url` in a gateway module is that module's own compiled file's URL, as
 *   before, so paths computed from it (migrations, workers, runtime folders, createRequire)
 *   are unchanged. A module using `import.meta` any other way fails the build.
 * - A package is bundled only when that cannot change what it does. It stays a package loaded
 *   by Node (external) when any file of it that the bundle would hold finds files by its own
 *   location (`__dirname`, `__filename`, `import.meta`, `require.resolve`, `require.cache`) or
 *   requires a name computed at run time; when an external package depends on it (it would be
 *   loaded twice, two copies with two states); or when Node, asked from the bundle's folder,
 *   would find another copy of a package than the importing package finds.
 * - CommonJS code in the bundle gets a `require` made for the bundle's folder, whose packages
 *   are those of the gateway (dist/gateway/node_modules links to the workspace's).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { parse } from 'acorn';
import { simple } from 'acorn-walk';
import { context, type BuildContext, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { FIRST_USE_NAMESPACE, loadOnFirstUse, type FirstUse } from './load-on-first-use.ts';

export interface BundleOptions {
  /** The project's folder (node_modules under it; paths in reasons are relative to it). */
  root: string;
  /** The compiled entry module; the bundle replaces it. */
  entry: string;
  /** Which modules are the project's own (their `import.meta` is rewritten). */
  ownRoot: string;
  /** Requires answered with stand-ins that load on first use (load-on-first-use.ts). */
  loadOnFirstUse?: readonly FirstUse[];
}

export interface BundleReport {
  /** Modules the bundle holds. */
  modules: number;
  /** Packages left to Node, with the reason. */
  external: Map<string, string>;
}

/** A file of a package that finds files by its own location. */
const LOCATION_BOUND =
  /\b__dirname\b|\b__filename\b|\bimport\.meta\b|\brequire\.resolve\b|\brequire\.cache\b|\bmodule\.require\b/;
/** `require(<not a string literal>)`. */
const COMPUTED_REQUIRE = /\brequire\(\s*[^'"`\s)]/;
/**
 * `const require = createRequire(import.meta.url);` as the per-module compile leaves it (it
 * renames the binding `require2`): in the bundle, the calls become plain `require` calls, which
 * esbuild bundles.
 */
const OWN_REQUIRE = /^const (require\d*) = createRequire\(import\.meta\.url\);$/m;

/**
 * Files whose computed require was read and found to be one the gateway never reaches, so that
 * their package can be bundled. Each with the reason.
 */
const REVIEWED_COMPUTED_REQUIRES: Record<string, string> = {
  'node_modules/express/lib/view.js':
    'loads a template engine by name for res.render(), which the gateway never calls',
};

const BANNER =
  "import { createRequire as __bundleCreateRequire } from 'node:module';\n" +
  'const require = __bundleCreateRequire(import.meta.url);';

/** The folder of the package holding `file` (…/node_modules/name or …/node_modules/@s/name). */
export function packageRootOf(file: string): string | undefined {
  const match = /^(.*[/\\]node_modules[/\\](?:@[^/\\]+[/\\])?[^/\\]+)[/\\]/.exec(file);
  return match?.[1];
}

/**
 * Bundles in passes: each pass's graph shows which packages must be left to Node
 * (judgePackages), and the next pass leaves them; the pass that adds none is the bundle: usually
 * the second, as judgePackages anticipates what the plugins would find.
 */
export async function bundleGateway(options: BundleOptions): Promise<BundleReport> {
  const outdir = dirname(options.entry);
  const state: PassState = { external: new Map(), unresolved: new Map() };
  const { external } = state;
  const nodeFinds = packageNodeFinds(outdir);
  // One esbuild context for every pass: a pass after the first parses no file again.
  const passes = await bundleContext(options, outdir, state, nodeFinds);
  try {
    for (;;) {
      state.unresolved = new Map();
      const result = await passes.rebuild();
      const before = external.size;
      for (const [root, reason] of state.unresolved)
        if (!external.has(root)) external.set(root, reason);
      judgePackages(options.root, result.metafile, external, nodeFinds);
      if (external.size === before) {
        // This pass left the same packages to Node as the next would: its output is the bundle.
        // Minified, a chunk has no comment left; only one with a character past U+007F (in a
        // regular expression literal: esbuild escapes strings and names) is parsed again.
        await Promise.all(
          (result.outputFiles ?? []).map(async (file) => {
            await mkdir(dirname(file.path), { recursive: true });
            await writeFile(
              file.path,
              NON_ASCII.test(file.text) ? asciiWithoutComments(file.text) : file.text,
            );
          }),
        );
        return { modules: Object.keys(result.metafile.inputs).length, external };
      }
    }
  } finally {
    await passes.dispose();
  }
}

/** What a pass's plugins read (the packages left to Node) and report (those not installed). */
interface PassState {
  readonly external: Map<string, string>;
  unresolved: Map<string, string>;
}

/** Adds to `external` the packages of the bundle that must be left to Node (see the top). */
function judgePackages(
  root: string,
  metafile: Metafile,
  external: Map<string, string>,
  nodeFinds: (specifier: string) => string | undefined,
): void {
  const bundled = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    if (input.startsWith(`${FIRST_USE_NAMESPACE}:`)) continue;
    const owner = packageRootOf(join(root, input));
    if (owner === undefined) continue;
    bundled.add(owner);
    if (external.has(owner)) continue;
    const text = readFileSync(join(root, input), 'utf8');
    if (LOCATION_BOUND.test(text)) external.set(owner, `${input} finds files by its own location`);
    else if (COMPUTED_REQUIRE.test(text) && REVIEWED_COMPUTED_REQUIRES[input] === undefined)
      external.set(owner, `${input} requires a name computed at run time`);
  }
  // What Node would load for the external packages at run time: none of it may be bundled too.
  const visited = new Set<string>();
  const visit = (dependent: string, from: string) => {
    if (visited.has(dependent)) return;
    visited.add(dependent);
    for (const dependency of declaredDependencies(dependent)) {
      const found = installedPackage(dependent, dependency);
      if (found === undefined) continue;
      if (bundled.has(found) && !external.has(found))
        external.set(found, `the external package ${from} depends on it`);
      visit(found, from);
    }
  };
  for (const owner of [...external.keys()]) visit(owner, relative(root, owner));
  // A bundled package that imports a package now left to Node, where Node (asked from the
  // bundle) would find another copy of it: left to Node too, with what it depends on. The next
  // pass's own check (leaveToNode) would find these one pass later.
  for (let changed = true; changed;) {
    changed = false;
    for (const [input, { imports }] of Object.entries(metafile.inputs)) {
      const importer = packageRootOf(join(root, input));
      if (importer === undefined || external.has(importer)) continue;
      const ownCopy = imports.find(({ path, original, external: leftToNode }) => {
        if (leftToNode === true || original === undefined || !BARE.test(original)) return false;
        const owner = packageRootOf(join(root, path));
        return owner !== undefined && external.has(owner) && nodeFinds(original) !== owner;
      });
      if (ownCopy === undefined) continue;
      external.set(importer, `it imports its own copy of ${ownCopy.original}`);
      visit(importer, relative(root, importer));
      changed = true;
    }
  }
}

/** A bare import (a package's name), not a relative or absolute path. */
const BARE = /^[^./]/;

function declaredDependencies(root: string): string[] {
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    return Object.keys({
      ...manifest.dependencies,
      ...manifest.optionalDependencies,
      ...manifest.peerDependencies,
    });
  } catch {
    return [];
  }
}

/** Where Node finds package `name` from a package at `root` (node_modules folders upwards). */
function installedPackage(root: string, name: string): string | undefined {
  for (let folder = root; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(folder) === folder) return undefined;
  }
}

function bundleContext(
  options: BundleOptions,
  outdir: string,
  state: PassState,
  nodeFinds: (specifier: string) => string | undefined,
): Promise<BuildContext<BundleBuildOptions>> {
  return context({
    absWorkingDir: options.root,
    entryPoints: [options.entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    outdir,
    entryNames: '[name]',
    chunkNames: 'bundled-[name]-[hash]',
    allowOverwrite: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
    // No comment and no indentation: a third less text for Node to read and hold (a module's
    // source stays in memory while it lives), and nothing for asciiWithoutComments to strip.
    minifyWhitespace: true,
    banner: { js: BANNER },
    plugins: [
      loadOnFirstUse(options.loadOnFirstUse ?? [], (path) => {
        const owner = packageRootOf(path);
        return owner !== undefined && state.external.has(owner);
      }),
      leaveToNode(options.root, state, nodeFinds),
      ownModules(options.root, options.ownRoot, outdir),
    ],
  });
}
type BundleBuildOptions = BuildOptions & { write: false; metafile: true };

/** The package whose copy Node finds for `specifier` when the bundle imports it, if any. */
function packageNodeFinds(outdir: string): (specifier: string) => string | undefined {
  const fromBundle = createRequire(join(outdir, 'bundle.js'));
  return (specifier) => {
    try {
      return packageRootOf(fromBundle.resolve(specifier));
    } catch {
      return undefined;
    }
  };
}

/**
 * The package folder (its real path, as esbuild names its files) that Node finds for a bare
 * specifier imported from a folder (installedPackage), cached by folder and name.
 */
function cachedInstalledPackage(): (from: string, specifier: string) => string | undefined {
  const found = new Map<string, string | undefined>();
  return (from, specifier) => {
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
    const key = `${from}\0${name}`;
    if (!found.has(key)) {
      const folder = installedPackage(from, name);
      found.set(key, folder === undefined ? undefined : realpathSync(folder));
    }
    return found.get(key);
  };
}

/** Bare imports of external packages are left to Node, after checking it finds the same copy. */
function leaveToNode(
  root: string,
  state: PassState,
  nodeFinds: (specifier: string) => string | undefined,
): Plugin {
  return {
    name: 'leave-to-node',
    setup(build) {
      // Answered here, from the folders Node would look in (no round trip back to esbuild):
      // one callback per bare import, ~1,700 a pass, is most of what the plugins cost a pass.
      const installedFrom = cachedInstalledPackage();
      build.onResolve({ filter: BARE }, (args) => {
        // Node's own modules (`node:fs`, and `fs` from CommonJS packages): esbuild leaves them.
        // `#name`: the importing package's own imports map, which esbuild follows.
        if (isBuiltin(args.path) || args.path.startsWith('#')) return undefined;
        const owner = installedFrom(args.resolveDir || dirname(args.importer), args.path);
        if (owner === undefined) {
          // Not installed (an optional dependency). Asked for at run time (require, import()),
          // Node is asked then, from the bundle, and fails or finds it as it would have. A
          // static import would fail the whole chunk: the importing package is left to Node.
          // (Until the next pass makes it external, the import is left so the pass completes.)
          const importer = packageRootOf(args.importer);
          if (importer === undefined)
            return { errors: [{ text: `Could not resolve "${args.path}": not installed` }] };
          if (args.kind !== 'dynamic-import' && args.kind !== 'require-call')
            state.unresolved.set(importer, `${args.path}, which it imports, is not installed`);
          return { path: args.path, external: true };
        }
        if (!state.external.has(owner)) return undefined;
        const seenFromBundle = nodeFinds(args.path);
        if (seenFromBundle !== owner) {
          // Its own nested copy: the importing package is left to Node too, which finds it.
          const importer = packageRootOf(args.importer);
          if (importer !== undefined) {
            state.unresolved.set(importer, `it imports its own copy of ${args.path}`);
            return { path: args.path, external: true };
          }
          return {
            errors: [
              {
                text:
                  `${args.path} (imported by ${relative(root, args.importer)}) is ` +
                  `${relative(root, owner)}, but Node would find ` +
                  `${seenFromBundle === undefined ? 'nothing' : relative(root, seenFromBundle)} from the bundle`,
              },
            ],
          };
        }
        return { path: args.path, external: true };
      });
    },
  };
}

/** The project's modules: `import.meta.url` keeps naming the module's own compiled file. */
function ownModules(root: string, ownRoot: string, outdir: string): Plugin {
  const own = ownRoot.endsWith(sep) ? ownRoot : `${ownRoot}${sep}`;
  return {
    name: 'own-modules',
    setup(build) {
      // Only the project's files come to this callback: each call is a round trip to esbuild.
      build.onLoad({ filter: new RegExp(`^${escapeRegExp(own)}.*\\.js$`) }, async (args) => {
        if (!args.path.startsWith(own) || args.path.includes(`${sep}node_modules${sep}`))
          return undefined;
        let text = await readFile(args.path, 'utf8');
        text = bundledRequires(text);
        const self = `new URL(${JSON.stringify(relative(outdir, args.path).split(sep).join('/'))}, import.meta.url).href`;
        const rewritten = rewriteImportMetaUrl(text, self);
        if (rewritten === undefined)
          return {
            errors: [
              {
                text: `${relative(root, args.path)}: only import.meta.url can be bundled`,
              },
            ],
          };
        text = rewritten;
        return { contents: text, loader: 'js' };
      });
    },
  };
}

/**
 * `source` with each `import.meta.url` replaced by `replacement`; undefined when it uses
 * `import.meta` otherwise (`import.meta.resolve`, `import.meta.dirname`, `import.meta` alone).
 * Read from the syntax tree, so the words in a string or a comment are left alone.
 */
export function rewriteImportMetaUrl(source: string, replacement: string): string | undefined {
  if (!source.includes('import.meta')) return source;
  const tree = parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  const metas: number[] = [];
  const urls: { start: number; end: number; meta: number }[] = [];
  simple(tree, {
    MetaProperty(node) {
      if (node.meta.name === 'import') metas.push(node.start);
    },
    MemberExpression(node) {
      if (
        node.object.type === 'MetaProperty' &&
        node.object.meta.name === 'import' &&
        !node.computed &&
        node.property.type === 'Identifier' &&
        node.property.name === 'url'
      )
        urls.push({ start: node.start, end: node.end, meta: node.object.start });
    },
  });
  if (metas.length !== urls.length) return undefined;
  let out = source;
  for (const { start, end } of urls.sort((a, b) => b.start - a.start))
    out = `${out.slice(0, start)}(${replacement})${out.slice(end)}`;
  return out;
}

/**
 * `source` without its comments (unminified, esbuild keeps the packages' and ours), and with
 * the characters above U+007F of its regular expression literals written as `\uXXXX` escapes
 * (esbuild escapes those of strings and names only). Node keeps a module's source text in
 * memory for as long as the module lives, and one character above U+00FF anywhere in it (an
 * em dash in a comment) makes V8 hold the whole text at two bytes a character: this way the
 * bundle's chunks are ASCII. A block comment becomes a space, or a line break when it held one
 * (it ends a statement there, for automatic semicolon insertion). An escape means in a regular
 * expression what the character it stands for does, with or without the `u` or `v` flag (a
 * surrogate pair's two escapes are one code point under those flags).
 */
export function asciiWithoutComments(source: string): string {
  const edits: { start: number; end: number; text: string }[] = [];
  const tree = parse(source, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    onComment: (block, text, start, end) =>
      edits.push({ start, end, text: block ? (/[\n\r\u2028\u2029]/.test(text) ? '\n' : ' ') : '' }),
  });
  simple(tree, {
    Literal(node) {
      if (!('regex' in node) || node.raw === undefined || !NON_ASCII.test(node.raw)) return;
      edits.push({
        start: node.start,
        end: node.end,
        text: node.raw.replace(
          NON_ASCII_ALL,
          (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
        ),
      });
    },
  });
  if (edits.length === 0) return source;
  edits.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const edit of edits) {
    parts.push(source.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  parts.push(source.slice(at));
  return parts.join('');
}
const NON_ASCII = /[\u0080-\uffff]/;
/** Each UTF-16 code unit above U+007F (no `u` flag: a surrogate pair is two matches). */
const NON_ASCII_ALL = /[\u0080-\uffff]/g;

/**
 * A module's own `createRequire(import.meta.url)` calls with a string, made plain `require`
 * calls that the bundle holds; left as they are when it uses the function otherwise
 * (`.resolve`, passed around).
 */
export function bundledRequires(source: string): string {
  const declaration = OWN_REQUIRE.exec(source);
  if (declaration === null) return source;
  const name = declaration[1]!;
  const rest = source.replace(OWN_REQUIRE, '');
  const calls = new RegExp(String.raw`\b${name}\((?=\s*['"])`, 'g');
  const anyUse = new RegExp(String.raw`\b${name}\b`, 'g');
  const callCount = rest.match(calls)?.length ?? 0;
  if (callCount === 0 || callCount !== (rest.match(anyUse)?.length ?? 0)) return source;
  return rest.replace(calls, 'require(');
}

/** `text` matching itself in a regular expression (esbuild's filters are Go regular expressions). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
