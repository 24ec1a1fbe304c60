/**
 * The gateway's entry bundle (bundle-gateway.ts), on a scratch project laid out as dist/ is:
 * compiled modules of our own that compute paths from import.meta.url and require packages
 * through createRequire, and packages of each kind the bundle must leave to Node. The bundle
 * is then run by Node, as `npm start` runs it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  asciiWithoutComments,
  bundleGateway,
  bundledRequires,
  rewriteImportMetaUrl,
} from './bundle-gateway.ts';

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
  await write(
    'dist/src/lazy.js',
    "// A comment — with an em dash.\nexport const lazy = /^ü$/.test('ü') ? 'loaded on use' : 'not';\n",
  );
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
    // No comment is left, and every file written is ASCII (one byte a character in memory).
    for (const file of files.filter((name) => name === 'main.js' || name.startsWith('bundled-'))) {
      const text = await readFile(join(project, 'dist/src', file), 'utf8');
      expect(text, file).toMatch(/^\p{ASCII}*$/u);
      expect(text, file).not.toContain('// dist/');
    }
  });

  it('leaves to Node a package that imports its own copy of a package left to Node', async () => {
    // nested-user finds its own copy of located (node_modules/nested-user/node_modules/located);
    // from the bundle's folder, Node would find the other one. Its dependency goes with it.
    await pkg('nested-helper', { 'index.js': "exports.help = 'helped';" });
    await pkg(
      'nested-user',
      {
        'index.js':
          "exports.data = require('located').data; exports.help = require('nested-helper').help;",
      },
      { located: '2.0.0', 'nested-helper': '1.0.0' },
    );
    await write(
      'node_modules/nested-user/node_modules/located/package.json',
      JSON.stringify({ name: 'located', version: '2.0.0', main: 'index.js' }),
    );
    await write(
      'node_modules/nested-user/node_modules/located/index.js',
      "exports.data = require('node:fs').readFileSync(__dirname + '/data.txt', 'utf8').trim();",
    );
    await write('node_modules/nested-user/node_modules/located/data.txt', 'the nested copy\n');
    await write(
      'dist/src/main.js',
      [
        "import located from 'located';",
        "import nested from 'nested-user';",
        'console.log(JSON.stringify({ top: located.data, nested: nested.data, help: nested.help }));',
      ].join('\n'),
    );
    const entry = join(project, 'dist/src/main.js');
    const before = await run(entry);
    const report = await bundleGateway({ root: project, entry, ownRoot: join(project, 'dist') });
    expect(before).toEqual({ top: 'beside located', nested: 'the nested copy', help: 'helped' });
    expect(await run(entry)).toEqual(before);
    const external = Object.fromEntries(
      [...report.external].map(([root, reason]) => [root.slice(project.length + 1), reason]),
    );
    expect(external).toMatchObject({
      'node_modules/nested-user': 'it imports its own copy of located',
      'node_modules/nested-helper': expect.stringContaining(
        'node_modules/nested-user depends on it',
      ),
      'node_modules/nested-user/node_modules/located': expect.stringContaining(
        'finds files by its own location',
      ),
    });
  });

  it('loads a package named to load on first use when its exports are first used, once', async () => {
    await pkg('heavy', {
      'index.js': [
        'globalThis.heavyLoads = (globalThis.heavyLoads ?? 0) + 1;',
        "exports.types = { json: 'application/json' };",
        'exports.lookup = (name) => exports.types[name] ?? false;',
      ].join('\n'),
    });
    // Two packages that require it as they load, one with its own nested copy.
    await pkg('user-a', { 'index.js': "const heavy = require('heavy'); exports.heavy = heavy;" });
    await pkg('user-b', {
      'index.js': "const heavy = require('heavy'); exports.heavy = heavy;",
      'node_modules/heavy/package.json': JSON.stringify({ name: 'heavy', main: 'index.js' }),
      'node_modules/heavy/index.js':
        "globalThis.nestedLoads = (globalThis.nestedLoads ?? 0) + 1; exports.copy = 'nested';",
    });
    // A file of a package, named with the one file that requires it so.
    await pkg('rel', {
      'index.js': "exports.part = require('./part.js'); exports.other = require('./other.js');",
      'part.js': "globalThis.partLoads = (globalThis.partLoads ?? 0) + 1; exports.value = 'part';",
      'other.js': "exports.eager = require('./eager.js');",
      'eager.js':
        "globalThis.eagerLoads = (globalThis.eagerLoads ?? 0) + 1; exports.value = 'eager';",
    });
    await write(
      'dist/src/main.js',
      [
        "import a from 'user-a';",
        "import b from 'user-b';",
        "import rel from 'rel';",
        'const atStart = { heavy: globalThis.heavyLoads ?? 0, nested: globalThis.nestedLoads ?? 0,',
        '  part: globalThis.partLoads ?? 0, eager: globalThis.eagerLoads ?? 0 };',
        'const part = rel.part.value;',
        "const found = a.heavy.lookup('json');",
        "const has = 'types' in a.heavy;",
        'const keys = Object.keys(a.heavy).sort();',
        "a.heavy.extra = 'set';",
        'const copy = b.heavy.copy;',
        'console.log(JSON.stringify({ atStart, found, has, keys, extra: a.heavy.extra,',
        '  copy, part, loads: globalThis.heavyLoads, nestedLoads: globalThis.nestedLoads,',
        '  partLoads: globalThis.partLoads }));',
      ].join('\n'),
    );
    const entry = join(project, 'dist/src/main.js');
    const before = (await run(entry)) as Record<string, unknown>;
    await bundleGateway({
      root: project,
      entry,
      ownRoot: join(project, 'dist'),
      loadOnFirstUse: [
        { require: 'heavy', reason: 'a test package' },
        { require: './part.js', from: 'rel/index.js', reason: 'a file of a test package' },
        { require: './eager.js', from: 'rel/index.js', reason: 'required from another file' },
      ],
    });
    const after = (await run(entry)) as Record<string, unknown>;
    // The bundle names no folder of the machine that built it.
    for (const file of await readdir(join(project, 'dist/src')))
      if (file.endsWith('.js'))
        expect(await readFile(join(project, 'dist/src', file), 'utf8')).not.toContain(project);
    expect(before.atStart).toEqual({ heavy: 1, nested: 1, part: 1, eager: 1 });
    expect(after).toEqual({
      ...before,
      atStart: { heavy: 0, nested: 0, part: 0, eager: 1 },
    });
    expect(after).toMatchObject({
      found: 'application/json',
      has: true,
      keys: ['lookup', 'types'],
      extra: 'set',
      copy: 'nested',
      loads: 1,
      nestedLoads: 1,
      part: 'part',
      partLoads: 1,
    });
  });

  it("bundles a scoped package and follows a package's own imports map (#name)", async () => {
    await write(
      'node_modules/@scope/mapped/package.json',
      JSON.stringify({
        name: '@scope/mapped',
        version: '1.0.0',
        main: 'index.js',
        imports: { '#inner': './lib/inner.js' },
      }),
    );
    await write('node_modules/@scope/mapped/index.js', "exports.inner = require('#inner').word;");
    await write('node_modules/@scope/mapped/lib/inner.js', "exports.word = 'mapped';");
    await write(
      'dist/src/main.js',
      "import mapped from '@scope/mapped';\nconsole.log(JSON.stringify({ inner: mapped.inner }));\n",
    );
    const entry = join(project, 'dist/src/main.js');
    const report = await bundleGateway({ root: project, entry, ownRoot: join(project, 'dist') });
    expect(await run(entry)).toEqual({ inner: 'mapped' });
    expect(report.external.size).toBe(0);
    expect(await readFile(entry, 'utf8')).toContain('exports.word="mapped"');
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

describe('asciiWithoutComments', () => {
  /** What a module's default export evaluates to (the text run as an ES module by Node). */
  async function evaluate(source: string): Promise<unknown> {
    const url = `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
    return ((await import(url)) as { default: unknown }).default;
  }

  it('removes comments and leaves strings, templates and regular expressions that look like them', () => {
    const source = [
      '/* a block — with an em dash */ const a = "// not a comment — kept as esbuild wrote it";',
      'const b = `/* nor this */ ${a} // nor this`; // but this — yes',
      'const c = /\\/\\/ not a comment/; /** JSDoc\n * over lines */',
      'export default [a, b, c.source];',
    ].join('\n');
    const out = asciiWithoutComments(source);
    expect(out).not.toMatch(/em dash|but this|JSDoc/);
    expect(out).toContain('"// not a comment — kept as esbuild wrote it"');
    expect(out).toContain('`/* nor this */ ${a} // nor this`');
    expect(out).toContain('/\\/\\/ not a comment/');
  });

  it('keeps the line break a block comment made (automatic semicolon insertion)', async () => {
    const source = 'function f() { return /* a\n*/ 1; }\nexport default f();';
    expect(await evaluate(source)).toBeUndefined();
    expect(await evaluate(asciiWithoutComments(source))).toBeUndefined();
    const inline = 'function f() { return /* a */ 1; }\nexport default f();';
    expect(await evaluate(asciiWithoutComments(inline))).toBe(1);
  });

  it('writes the characters of regular expression literals as escapes that match the same', async () => {
    const literals = [
      '/[.!?)\\]`"\'”:*]$/',
      '/^[-+]?[$€£]?\\s*\\d/',
      "/[^a-zäöüéèàíóúñ']+/i",
      '/Ü+ber/iu',
      '/[😀-😂]/u',
      '/[😀-😂]/v',
      '/😀{2}/u',
      '/😀{2}/',
      '/[😀]/',
      '/\\p{Script=Greek}|ß/u',
    ];
    const samples = [
      'end”',
      '€ 5',
      'Grüße',
      'ÜÜBER',
      'üBER',
      '😁',
      '😀😀',
      '\uD83D\uDE00\uDE00',
      'ß',
      'λ',
      '\uD83D',
    ];
    const table = (list: string) =>
      `export default [${list}].map((re) => ${JSON.stringify(samples)}.map((s) => s.match(re)?.[0] ?? null));`;
    const source = table(literals.join(', '));
    const out = asciiWithoutComments(source);
    // The literals are ASCII now (the samples' strings are left: esbuild escapes strings itself).
    expect(out.slice(0, out.indexOf('].map'))).toMatch(/^\p{ASCII}*$/u);
    expect(await evaluate(out)).toEqual(await evaluate(source));
  });

  it('leaves a text without comments or such literals as it is', () => {
    const source = 'export const a = "ü"; export const b = /x/u;\n';
    expect(asciiWithoutComments(source)).toBe(source);
  });
});
