import { describe, expect, it } from 'vitest';
import { importSites, importSpecifiers } from './import-specifiers.ts';

describe('importSpecifiers', () => {
  it('finds static imports, re-exports, side-effect imports and literal import()', () => {
    const code = [
      "import a from 'a';",
      "import { b } from 'b/sub';",
      "export * from './c.js';",
      "export { d } from 'd';",
      "import 'e';",
      "const f = await import('f');",
      "import g from './g.json' with { type: 'json' };",
      "import again from 'a';",
    ].join('\n');
    expect(importSpecifiers('m.js', code)).toEqual([
      'a',
      'b/sub',
      './c.js',
      'd',
      'e',
      'f',
      './g.json',
    ]);
  });

  it('never counts comments, strings, templates or regular expressions', () => {
    const code = [
      "// import x from 'comment';",
      "/* import('block') */",
      'const s = "import y from \'string\'";',
      "const t = `export * from 'template'`;",
      "const r = /import z from 'regex'/;",
      'const meta = import.meta.url;',
    ].join('\n');
    expect(importSpecifiers('m.js', code)).toEqual([]);
  });

  it('reports an import(<expression>) without a specifier', () => {
    const sites = importSites('m.js', 'const name = "x";\nawait import(name);\n');
    expect(sites).toEqual([{ specifier: undefined, start: 31, end: 35, dynamic: true }]);
  });
});
