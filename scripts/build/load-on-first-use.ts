/**
 * Packages (and files of packages) the gateway's bundle loads when their exports are first
 * used, not when the code that requires them loads. Express requires mime-types (and, through
 * it, mime-db's table of ~2,500 types) and qs as it loads, for replies and bodies that most
 * starts never see before /ready: the gateway writes its JSON replies itself
 * (http/mount-routes.ts), and JSON bodies are told by their type without the table. drizzle
 * requires PostgreSQL's column types for a check that only relational schemas reach.
 *
 * In the bundle, each `require('<name>')` of such a package returns a stand-in: an object that
 * loads the package the first time one of its exports is read, checked, listed or set, and
 * from then on is the package's exports for every purpose the requiring code has (a CommonJS
 * package whose exports are a plain object of functions and tables; one whose exports are a
 * function or class cannot be stood in for this way). Each copy of a package gets its own
 * stand-in; a package left to Node is left as it is.
 */
import { dirname, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';

/** A `require` the bundle answers with a stand-in. */
export interface FirstUse {
  /** The specifier as the requiring code writes it: a package's name, or a relative path. */
  require: string;
  /** Only in this file (its path under node_modules); every requiring file when absent. */
  from?: string;
  /** Why, with what it cost. */
  reason: string;
}

/** The requires the gateway's bundle answers with stand-ins. */
export const GATEWAY_LOAD_ON_FIRST_USE: readonly FirstUse[] = [
  {
    require: 'mime-types',
    reason:
      'express, type-is and send require it as they load; building its maps took ~22 ms of a start',
  },
  { require: 'mime-db', reason: "mime-types' and compressible's table of types: ~11 ms" },
  {
    require: 'qs',
    reason: "express's urlencoded body parser requires it as it loads; the gateway mounts none",
  },
  {
    require: './pg-core/primary-keys.cjs',
    from: 'drizzle-orm/relations.cjs',
    reason:
      "drizzle's relations read PostgreSQL's primary-key builder only for a relational schema, " +
      "which the gateway never gives; requiring it loaded all of pg-core's columns (~10 ms)",
  },
];

/** The esbuild namespace of the stand-ins (metafile inputs `load-on-first-use:<path>`). */
export const FIRST_USE_NAMESPACE = 'load-on-first-use';

/** Marks the resolution asked for by the plugin itself, which must find the real package. */
const REAL = Symbol('real package');

/**
 * The plugin: a `require` of one of `uses` resolves (as esbuild would) to the file the requiring
 * file finds, and is answered with that file's stand-in. `isLeftToNode` names the files of
 * packages the bundle leaves to Node, which are not stood in for.
 */
export function loadOnFirstUse(
  uses: readonly FirstUse[],
  isLeftToNode: (path: string) => boolean,
): Plugin {
  return {
    name: 'load-on-first-use',
    setup(build) {
      if (uses.length === 0) return;
      // Stand-ins are named by their path from the working folder, as esbuild names files: the
      // bundle names no folder of the machine that built it.
      const workingDir = build.initialOptions.absWorkingDir ?? process.cwd();
      const filter = new RegExp(`^(${uses.map((use) => escapeRegExp(use.require)).join('|')})$`);
      const wanted = (specifier: string, importer: string) =>
        uses.some(
          (use) =>
            use.require === specifier &&
            (use.from === undefined ||
              importer.split(sep).join('/').endsWith(`/node_modules/${use.from}`)),
        );
      build.onResolve({ filter }, async (args) => {
        if (args.pluginData === REAL || args.kind !== 'require-call') return undefined;
        if (!wanted(args.path, args.importer)) return undefined;
        const real = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir || dirname(args.importer),
          pluginData: REAL,
        });
        if (real.errors.length > 0 || real.external || isLeftToNode(real.path)) return undefined;
        return {
          path: relative(workingDir, real.path).split(sep).join('/'),
          namespace: FIRST_USE_NAMESPACE,
        };
      });
      build.onLoad({ filter: /.*/, namespace: FIRST_USE_NAMESPACE }, (args) => {
        const path = resolve(workingDir, args.path);
        return { contents: standIn(path), resolveDir: dirname(path), loader: 'js' };
      });
    },
  };
}

/** The stand-in module for the package file at `path`. */
function standIn(path: string): string {
  return [
    'let exported;',
    `const real = () => (exported ??= require(${JSON.stringify(path)}));`,
    'module.exports = new Proxy({}, {',
    '  get: (_, key) => real()[key],',
    '  set: (_, key, value) => { real()[key] = value; return true; },',
    '  has: (_, key) => key in real(),',
    '  deleteProperty: (_, key) => delete real()[key],',
    '  ownKeys: () => Reflect.ownKeys(real()),',
    '  getOwnPropertyDescriptor: (_, key) => {',
    '    const found = Reflect.getOwnPropertyDescriptor(real(), key);',
    '    return found === undefined ? undefined : { ...found, configurable: true };',
    '  },',
    '});',
  ].join('\n');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
