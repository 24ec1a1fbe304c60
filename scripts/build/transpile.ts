/**
 * TypeScript → JavaScript for dist/, module by module, with esbuild's transform (no bundling):
 * each source module becomes one module at the same place under the output folder, so every
 * path computed from `import.meta.url` (migrations, worker threads, the skill host's runtime,
 * the CLI) holds as in the sources. Relative `.ts` import specifiers become `.js`, as tsc's
 * rewriteRelativeImportExtensions did. `tsc -p tsconfig.build.json` took 28 s for the ~660
 * modules (it parses every file even without checking types); this takes ~1 s.
 *
 * The modules are the build selection of tsconfig.build.json (`include` less `exclude`), and
 * its compiler options are esbuild's (verbatimModuleSyntax: an import is kept or dropped
 * exactly as written).
 */
import { globSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, matchesGlob, relative } from 'node:path';
import { build } from 'esbuild';
import { importSites } from './import-specifiers.ts';

const CONFIG = 'tsconfig.build.json';

interface BuildConfig {
  include: string[];
  exclude: string[];
}

/** The modules tsconfig.build.json selects, relative to `root`, sorted. */
export function buildSelection(root: string): string[] {
  const { include, exclude } = JSON.parse(readFileSync(`${root}/${CONFIG}`, 'utf8')) as BuildConfig;
  // A tsconfig `exclude` pattern names files and whole folders (`**/testing/**`,
  // `**/node_modules`).
  const excluded = (path: string): boolean =>
    exclude.some((pattern) => matchesGlob(path, pattern) || matchesGlob(path, `${pattern}/**`));
  return globSync(include, { cwd: root })
    .filter((file) => !excluded(file) && !file.endsWith('.d.ts'))
    .sort();
}

/** `./x.ts` → `./x.js` (.tsx → .js, .mts → .mjs, .cts → .cjs), as tsc rewrites relative imports. */
export function rewriteSpecifier(specifier: string): string {
  if (!/^\.\.?\//.test(specifier)) return specifier;
  return specifier.replace(/\.(ts|tsx|mts|cts)$/, (_match, extension: string) =>
    extension === 'mts' ? '.mjs' : extension === 'cts' ? '.cjs' : '.js',
  );
}

/**
 * What tsc adds to a module with an `import(<expression>)`: the specifier is known only at run
 * time, so a relative `.ts` one is rewritten then (the same rules as tsc's helper).
 */
const RUNTIME_REWRITE = `function __rewriteRelativeImportExtension(path) {
  if (typeof path === "string" && /^\\.\\.?\\//.test(path)) {
    const extension = /\\.(tsx)$|((?:\\.d)?)((?:\\.[^./]+?)?)\\.([cm]?)ts$/i;
    return path.replace(extension, function (m, tsx, d, ext, cm) {
      return tsx ? ".js" : d && (!ext || !cm) ? m : (d + ext + "." + cm.toLowerCase() + "js");
    });
  }
  return path;
}
`;

/** The module with its relative `.ts` imports rewritten, at build time where they are literal. */
export function rewriteImports(fileName: string, code: string): string {
  let out = '';
  let at = 0;
  let atRunTime = false;
  for (const site of importSites(fileName, code)) {
    const written = code.slice(site.start, site.end);
    let replacement: string;
    if (site.specifier === undefined) {
      replacement = `__rewriteRelativeImportExtension(${written})`;
      atRunTime = true;
    } else {
      const rewritten = rewriteSpecifier(site.specifier);
      if (rewritten === site.specifier) continue;
      if (!written.includes(site.specifier))
        throw new Error(`${fileName}: the import of '${site.specifier}' is written with escapes`);
      replacement = written.replace(site.specifier, rewritten);
    }
    out += code.slice(at, site.start) + replacement;
    at = site.end;
  }
  return (atRunTime ? RUNTIME_REWRITE : '') + out + code.slice(at);
}

/** Compiles the build selection of `root` into `outdir`, keeping the source tree's layout. */
export async function transpile(root: string, outdir: string): Promise<void> {
  const { outputFiles } = await build({
    absWorkingDir: root,
    entryPoints: buildSelection(root),
    outdir,
    outbase: '.',
    tsconfig: CONFIG,
    format: 'esm',
    platform: 'node',
    target: 'es2024',
    charset: 'utf8',
    logLevel: 'warning',
    write: false,
  });
  await Promise.all(
    outputFiles.map(async (file) => {
      await mkdir(dirname(file.path), { recursive: true });
      await writeFile(file.path, rewriteImports(relative(root, file.path), file.text));
    }),
  );
}
