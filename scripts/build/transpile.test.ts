import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSelection, rewriteImports, rewriteSpecifier, transpile } from './transpile.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-transpile-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

const CONFIG = JSON.stringify({
  compilerOptions: { target: 'es2024', module: 'nodenext', verbatimModuleSyntax: true },
  include: ['src/**/*.ts'],
  exclude: ['**/*.test.ts', '**/testing/**', '**/fake-*.ts'],
});

describe('rewriteSpecifier', () => {
  it('turns relative TypeScript specifiers into the compiled ones, as tsc does', () => {
    expect(rewriteSpecifier('./a.ts')).toBe('./a.js');
    expect(rewriteSpecifier('../b/c.tsx')).toBe('../b/c.js');
    expect(rewriteSpecifier('./d.mts')).toBe('./d.mjs');
    expect(rewriteSpecifier('./e.cts')).toBe('./e.cjs');
  });

  it('leaves packages, builtins and other files as they are', () => {
    for (const specifier of ['zod', 'pkg/x.ts', 'node:fs', './data.json', './f.js', '.ts'])
      expect(rewriteSpecifier(specifier)).toBe(specifier);
  });
});

describe('rewriteImports', () => {
  it('rewrites static imports, re-exports, side-effect and literal dynamic imports', () => {
    const code = [
      'import { a } from "./a.ts";',
      'export { b } from "../b.ts";',
      'export * from "./c.ts";',
      'import "./d.ts";',
      'const e = await import("./e.ts");',
      'import z from "zod";',
    ].join('\n');
    expect(rewriteImports('m.js', code)).toBe(
      [
        'import { a } from "./a.js";',
        'export { b } from "../b.js";',
        'export * from "./c.js";',
        'import "./d.js";',
        'const e = await import("./e.js");',
        'import z from "zod";',
      ].join('\n'),
    );
  });

  it('leaves specifiers inside strings, comments and templates alone', () => {
    const code = [
      '// import { a } from "./a.ts";',
      'const text = \'import "./b.ts"\';',
      'const template = `from "./c.ts"`;',
    ].join('\n');
    expect(rewriteImports('m.js', code)).toBe(code);
  });

  it('rewrites an import(<expression>) at run time, like tsc', async () => {
    await write({
      'target.js': 'export const found = "compiled";\n',
      'loader.mjs': rewriteImports(
        'loader.mjs',
        'const name = "./target.ts";\nconsole.log((await import(name)).found);\n',
      ),
    });
    // A plain Node process: the test runner would resolve the import itself.
    const run = spawnSync(process.execPath, [join(root, 'loader.mjs')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('compiled\n');
  });
});

describe('transpile', () => {
  it("compiles tsconfig.build.json's selection module by module into the same layout", async () => {
    await write({
      'tsconfig.build.json': CONFIG,
      'src/main.ts': [
        "import type { Shape } from './shape.ts';",
        "import { area } from './geometry/area.ts';",
        'const square: Shape = { side: 3 };',
        'export const result: number = area(square);',
        'export const self = import.meta.url;',
      ].join('\n'),
      'src/shape.ts': 'export interface Shape { side: number }\n',
      'src/geometry/area.ts': [
        "import type { Shape } from '../shape.ts';",
        'export const area = (s: Shape): number => s.side ** 2;',
      ].join('\n'),
      'src/main.test.ts': 'export {};\n',
      'src/testing/helper.ts': 'export {};\n',
      'src/fake-server.ts': 'export {};\n',
      'src/types.d.ts': 'declare const x: number;\n',
    });
    expect(buildSelection(root)).toEqual(['src/geometry/area.ts', 'src/main.ts', 'src/shape.ts']);

    await transpile(root, 'dist');
    const written = (await readdir(join(root, 'dist'), { recursive: true })).sort();
    expect(written).toEqual([
      'src',
      'src/geometry',
      'src/geometry/area.js',
      'src/main.js',
      'src/shape.js',
    ]);
    const main = (await import(pathToFileURL(join(root, 'dist/src/main.js')).href)) as {
      result: number;
      self: string;
    };
    expect(main.result).toBe(9);
    expect(main.self).toBe(pathToFileURL(join(root, 'dist/src/main.js')).href);
    // verbatimModuleSyntax: a type-only import leaves nothing behind.
    expect(await readFile(join(root, 'dist/src/main.js'), 'utf8')).not.toContain('shape');
  });
});
