/**
 * The gateway's entry bundle (bundle-gateway.ts), on a scratch project laid out as dist/ is:
 * compiled modules of our own that compute paths from import.meta.url and require packages
 * through createRequire, and packages of each kind the bundle must leave to Node. The bundle
 * is then run by Node, as `npm start` runs it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleGateway, bundledRequires, rewriteImportMetaUrl } from './bundle-gateway.ts';

let project: string;

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(project, path)), { recursive: true });
  await writeFile(join(project, path), text);
}

async function pkg(name: string, files: Record<string, string>, dependencies = {}) {
  await write(
    `node_modules/${name}/package.json`,
    JSON.stringify({ name, version: '1.0.0', main: 'index.js', dependencies }),
  );
  for (const [file, text] of Object.entries(files))
    await write(`node_modules/${name}/${file}`, text);
}

async function run(entry: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, [entry], { cwd: project });
  return JSON.parse(stdout);
}

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'hearth-bundle-'));
  // A shared package: loaded twice, it would count two starts.
  await pkg('shared', {
    'index.js': 'globalThis.sharedLoads = (globalThis.sharedLoads ?? 0) + 1; exports.id = {};',
  });
  await pkg('pure', { 'index.js': "exports.name = 'pure'; exports.shared = require('shared');" });
  await pkg(
    'located',
    {
      'index.js':
        "const { join } = require('node:path'); exports.data = require('node:fs').readFileSync(join(__dirname, 'data.txt'), 'utf8').trim(); exports.shared = require('shared');",
      'data.txt': 'beside located\n',
    },
    { shared: '1.0.0' },
  );
  await pkg('computed', {
    'index.js': "const name = './part' + '.js'; exports.part = require(name).part;",
    'part.js': "exports.part = 'part of computed';",
  });
  await write(
    'node_modules/static-user/package.json',
    JSON.stringify({ name: 'static-user', version: '1.0.0', type: 'module', main: 'index.js' }),
  );
  await write(
    'node_modules/static-user/index.js',
    "import missing from 'not-installed-either'; export default missing;",
  );
  await pkg('optional-user', {
    'index.js':
      "let extra; try { extra = require('not-installed'); } catch { extra = 'none'; } exports.extra = extra;",
  });
  await write('dist/src/data/notes.txt', 'beside the module\n');
  await write(
    'dist/src/data/reader.js',
    [
      "import { readFileSync } from 'node:fs';",
      "import { createRequire } from 'node:module';",
      'const require2 = createRequire(import.meta.url);',
      "export const notes = readFileSync(new URL('./notes.txt', import.meta.url), 'utf8').trim();",
      "export const pure = require2('pure');",
      "// import.meta.resolve in a comment, and 'import.meta.dirname' in a string, are words.",
      "export const words = 'import.meta.dirname';",
    ].join('\n'),
  );
  await write('dist/src/lazy.js', "export const lazy = 'loaded on use';\n");
  await write(
    'dist/src/main.js',
    [
      "import { notes, pure, words } from './data/reader.js';",
      "import located from 'located';",
      "import computed from 'computed';",
      "import optional from 'optional-user';",
      "import * as shared from 'shared';",
      "const { lazy } = await import('./lazy.js');",
      "const staticUser = await import('static-user').then(() => 'loaded', (error) => error.code);",
      'console.log(JSON.stringify({ notes, pure: pure.name, words, located: located.data,',
      '  computed: computed.part, optional: optional.extra, lazy, staticUser,',
      '  sharedLoads: globalThis.sharedLoads, oneShared: located.shared === pure.shared && pure.shared.id === shared.id }));',
    ].join('\n'),
  );
});
afterEach(() => rm(project, { recursive: true, force: true }));

describe('bundleGateway', () => {
  it('bundles the entry with what it loads; the result runs as the modules did', async () => {
    const entry = join(project, 'dist/src/main.js');
    const before = await run(entry);
    const report = await bundleGateway({ root: project, entry, ownRoot: join(project, 'dist') });
    expect(await run(entry)).toEqual(before);
    expect(before).toEqual({
      notes: 'beside the module',
      pure: 'pure',
      words: 'import.meta.dirname',
      located: 'beside located',
      computed: 'part of computed',
      optional: 'none',
      lazy: 'loaded on use',
      staticUser: 'ERR_MODULE_NOT_FOUND',
      sharedLoads: 1,
      oneShared: true,
    });
    const external = Object.fromEntries(
      [...report.external].map(([root, reason]) => [root.slice(project.length + 1), reason]),
    );
    expect(external).toEqual({
      'node_modules/located': expect.stringContaining('finds files by its own location'),
      'node_modules/computed': expect.stringContaining('requires a name computed at run time'),
      // A static import of a package that is not installed: left to Node. (optional-user's
      // require of one, at run time, is bundled: Node is asked then, and answers the same.)
      'node_modules/static-user': expect.stringContaining('not-installed-either'),
      // Bundled, it would be a second copy beside the one located loads.
      'node_modules/shared': expect.stringContaining('node_modules/located depends on it'),
    });
    // The dynamic import is a chunk of its own, beside the entry.
    const files = await readdir(join(project, 'dist/src'));
    expect(files.filter((file) => file.startsWith('bundled-lazy-'))).toHaveLength(1);
  });

  it('refuses a module of ours that uses import.meta otherwise than .url', async () => {
    await write(
      'dist/src/main.js',
      "console.log(import.meta.resolve('./lazy.js'), import.meta.url);\n",
    );
    await expect(
      bundleGateway({
        root: project,
        entry: join(project, 'dist/src/main.js'),
        ownRoot: join(project, 'dist'),
      }),
    ).rejects.toThrow('dist/src/main.js: only import.meta.url can be bundled');
  });
});

describe('rewriteImportMetaUrl', () => {
  it('replaces import.meta.url in code only', () => {
    const source =
      "const a = import.meta.url; // import.meta.url\nconst b = 'import.meta.url' + import.meta . url;";
    expect(rewriteImportMetaUrl(source, 'SELF')).toBe(
      "const a = (SELF); // import.meta.url\nconst b = 'import.meta.url' + (SELF);",
    );
  });

  it('refuses other uses of import.meta', () => {
    for (const use of [
      'const x = import.meta.resolve("x");',
      'const x = import.meta.dirname;',
      'const x = import.meta;',
      'const x = import.meta["url"];',
      'const { url } = import.meta;',
    ])
      expect(rewriteImportMetaUrl(use, 'SELF'), use).toBeUndefined();
  });
});

describe('bundledRequires', () => {
  it("turns a module's createRequire calls with a string into require calls", () => {
    const source =
      "import { createRequire } from 'node:module';\nconst require2 = createRequire(import.meta.url);\nexport const a = require2('a');\nexport const b = () => require2(\"b\");";
    expect(bundledRequires(source)).toBe(
      "import { createRequire } from 'node:module';\n\nexport const a = require('a');\nexport const b = () => require(\"b\");",
    );
  });

  it('leaves them when the function is used otherwise', () => {
    for (const use of ["require2.resolve('a')", 'load(require2)', 'require2(name)'])
      expect(
        bundledRequires(
          `const require2 = createRequire(import.meta.url);\nexport const a = ${use};`,
        ),
      ).toContain('createRequire(import.meta.url)');
  });
});
