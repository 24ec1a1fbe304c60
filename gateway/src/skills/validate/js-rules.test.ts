import { describe, expect, it } from 'vitest';
import { createSkillValidator } from './validator.ts';

const validate = createSkillValidator();

/** [what it tries, source, the construct the rejection names, its line]. */
const hostile: [string, string, string, number][] = [
  // Blocked modules, in every spelling.
  ['a static import', "import { exec } from 'child_process';", "import 'child_process'", 1],
  ['the node: prefix', "\nimport cp from 'node:child_process';", "import 'node:child_process'", 2],
  ['a subpath', "import x from 'child_process/promises';", "import 'child_process/promises'", 1],
  ['a side-effect import', "import 'node:cluster';", "import 'node:cluster'", 1],
  [
    'worker threads',
    "import { Worker } from 'node:worker_threads';",
    "import 'node:worker_threads'",
    1,
  ],
  ['vm', "import * as vm from 'vm';", "import 'vm'", 1],
  ['v8', "import v8 from 'node:v8';", "import 'node:v8'", 1],
  [
    'inspector/promises',
    "import { Session } from 'node:inspector/promises';",
    "import 'node:inspector/promises'",
    1,
  ],
  [
    'module (createRequire)',
    "import { createRequire } from 'node:module';\nconst r = createRequire(import.meta.url);",
    "import 'node:module'",
    1,
  ],
  ['repl', "import repl from 'node:repl';", "import 'node:repl'", 1],
  ['node:test run()', "import { run } from 'node:test';", "import 'node:test'", 1],
  ['export * from', "export * from 'child_process';", "export … from 'child_process'", 1],
  [
    'a named re-export',
    "export { spawn as go } from 'node:child_process';",
    "export … from 'node:child_process'",
    1,
  ],
  [
    'a literal dynamic import',
    "const cp = await import('child_process');",
    "import('child_process')",
    1,
  ],
  [
    'a template dynamic import',
    'const cp = await import(`node:child_process`);',
    "import('node:child_process')",
    1,
  ],
  [
    'a concatenated dynamic import',
    "await import('child' + '_process');",
    "import('child_process')",
    1,
  ],
  [
    'a template with a substitution',
    'const m = "child";\nawait import(`${m}_process`);',
    'import(<expression>)',
    2,
  ],
  [
    'a variable dynamic import',
    'const name = "fs";\nawait import(name);',
    'import(<expression>)',
    2,
  ],
  [
    'an import() of import.meta',
    'await import(import.meta.url + "/../x.mjs");',
    'import(<expression>)',
    1,
  ],
  ['require', "const cp = require('child_process');", "require('child_process')", 1],
  ['require with a variable', 'const m = "x";\nrequire(m);', 'require(<expression>)', 2],
  ['require kept as a value', 'const r = require;\nr("child_process");', 'require (as a value)', 1],
  ['globalThis.require', "globalThis.require('node:vm');", "require('node:vm')", 1],
  [
    'a data: URL import',
    "import x from 'data:text/javascript,export default 1';",
    "import 'data:text/javascript,export default 1'",
    1,
  ],
  [
    'a file import from elsewhere',
    "import x from '../../skill-data/me/payload.mjs';",
    "import '../../skill-data/me/payload.mjs'",
    1,
  ],
  [
    'a native addon',
    "import addon from './build/Release/addon.node';",
    "import './build/Release/addon.node'",
    1,
  ],
  ['an addon loader', "import bindings from 'bindings';", "import 'bindings'", 1],
  [
    'another hearth: specifier than the skill API',
    "import { Plugin } from 'hearth:gateway';",
    "import 'hearth:gateway'",
    1,
  ],
  [
    'import.meta.resolve of a blocked module',
    "const u = import.meta.resolve('node:child_process');",
    "import.meta.resolve('node:child_process')",
    1,
  ],
  // process internals.
  ['process.binding', "process.binding('spawn_sync');", 'process.binding', 1],
  ['process.dlopen', 'process.dlopen(module, "/tmp/x.node");', 'process.dlopen', 1],
  [
    'process.getBuiltinModule',
    "const cp = process.getBuiltinModule('child_process');",
    'process.getBuiltinModule',
    1,
  ],
  ['process._linkedBinding', "process._linkedBinding('x');", 'process._linkedBinding', 1],
  ['process.execve', "process.execve('/bin/sh', []);", 'process.execve', 1],
  ['optional chaining', "process?.binding?.('fs');", 'process.binding', 1],
  ['a literal computed key', "process['binding']('fs');", 'process.binding', 1],
  ['a concatenated key', "process['bin' + 'ding']('fs');", 'process.binding', 1],
  ['a computed key', 'export const peek = (k) =>\n  process[k]("fs");', 'process[<expression>]', 2],
  ['globalThis.process', "globalThis.process.dlopen(m, 'x');", 'process.dlopen', 1],
  ['global["process"]', "global['process'].binding('fs');", 'process.binding', 1],
  ['process as a value', 'const p = process;\np.binding("fs");', 'process (as a value)', 1],
  ['destructuring', 'const { binding } = process;', 'process.binding', 1],
  ['a rest pattern', 'const { ...all } = process;', 'process (as a value)', 1],
  [
    'an imported process',
    "import proc from 'node:process';\nproc.binding('fs');",
    'process.binding',
    2,
  ],
  [
    'a named import from process',
    "import { dlopen } from 'process';",
    "import { dlopen } from 'process'",
    1,
  ],
  [
    'a dynamic import of process',
    "const p = await import('node:process');",
    "import('node:process')",
    1,
  ],
  ['module.require', "module.require('child_process');", 'module.require', 1],
  [
    'the CommonJS wrapper’s arguments',
    "const load = () => arguments[1];\nload()('child_process');",
    'arguments (outside a function)',
    1,
  ],
  [
    'process taken out of globalThis',
    'const { process: p } = globalThis;\np.binding("fs");',
    'globalThis.process',
    1,
  ],
  [
    'the default of a process namespace',
    "import * as ns from 'node:process';\nns.default.binding('fs');",
    'process.binding',
    2,
  ],
  // Code from strings.
  ['eval', "eval('1 + 1');", 'eval', 1],
  ['an indirect eval', "(0, eval)('1');", 'eval', 1],
  ['a unicode-escaped eval', "\\u0065val('1');", 'eval', 1],
  ['a unicode-escaped eval (braces)', "\\u{65}val('1');", 'eval', 1],
  ['globalThis.eval', "globalThis.eval('1');", 'globalThis.eval', 1],
  ['a concatenated globalThis key', "globalThis['ev' + 'al']('1');", 'globalThis.eval', 1],
  ['a template globalThis key', 'globalThis[`ev${"al"}`]("1");', 'globalThis.eval', 1],
  [
    'a computed globalThis key',
    'export const call = (k) =>\n  globalThis[k]("1");',
    'globalThis[<expression>]',
    2,
  ],
  [
    'a globalThis key kept in a constant',
    'const k = "eval";\nglobalThis[k]("1");',
    '[k] (eval)',
    2,
  ],
  ['globalThis as a value', 'const g = globalThis;', 'globalThis (as a value)', 1],
  ['new Function', "const f = new Function('return 1');", 'new Function', 1],
  ['Function()', "Function('return 1')();", 'Function(…)', 1],
  ['a tagged template', 'Function`return 1`;', 'Function`…`', 1],
  ['Reflect.construct', "Reflect.construct(Function, ['return 1']);", 'Function', 1],
  ['an arrow constructor', "(() => {}).constructor('return 1')();", '.constructor', 1],
  [
    'an async constructor',
    'const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;',
    '.constructor',
    1,
  ],
  [
    'a computed constructor',
    "[]['constr' + 'uctor']['constructor']('return 1');",
    '.constructor',
    1,
  ],
  [
    'a destructured constructor',
    'const { constructor: F } = () => {};',
    '{ constructor } (destructured)',
    1,
  ],
  [
    'Reflect.get of constructor',
    "Reflect.get(() => {}, 'constructor');",
    "Reflect.get(…, 'constructor')",
    1,
  ],
  [
    'a descriptor of eval',
    "Object.getOwnPropertyDescriptor(globalThis, 'eval');",
    "Object.getOwnPropertyDescriptor(…, 'eval')",
    1,
  ],
  ['ShadowRealm', 'new ShadowRealm().evaluate("1");', 'new ShadowRealm', 1],
  ['extends Function', 'class F extends Function {}', 'Function', 1],
  [
    'import.meta with a computed key',
    'const k = "x";\nimport.meta[k];',
    'import.meta[<expression>]',
    2,
  ],
  [
    'a key kept in a constant',
    "const k = 'constr' + 'uctor';\nconst F = (() => {})[k];",
    '[k] (constructor)',
    2,
  ],
  ['a key assigned later', "let k;\nk = 'binding';\nprocess[k]('fs');", '[k] (binding)', 3],
  ['a unicode-escaped process', "\\u0070rocess.binding('fs');", 'process.binding', 1],
  ['a unicode-escaped string key', "process['\\u0062inding']('fs');", 'process.binding', 1],
  ['global?.eval', "global?.eval('1');", 'globalThis.eval', 1],
  ['eval on any object', "const w = {};\nw?.eval('1');", '.eval', 2],
  [
    'globalThis.globalThis.Function',
    "new globalThis.globalThis.Function('1');",
    'globalThis.Function',
    1,
  ],
  [
    'import() of import.meta.resolve',
    "await import(import.meta.resolve('child_process'));",
    "import.meta.resolve('child_process')",
    1,
  ],
  ['import.meta.require', "import.meta.require('child_process');", 'import.meta.require', 1],
  ['require.call', "require.call(null, 'child_process');", 'require.call', 1],
  ['an optional require', "require?.('child_process');", "require('child_process')", 1],
  ['process.mainModule', "process.mainModule.require('child_process');", 'process.mainModule', 1],
  ['a generator constructor', "(function* () {}).constructor('yield 1');", '.constructor', 1],
  ['SQLite native extensions', "db.loadExtension('/tmp/x.so');", '.loadExtension', 1],
  // Not a module at all.
  ['a syntax error', 'export const ok = 1;\nconst = 2;', 'syntax error', 2],
  ['with (not allowed in a module)', 'with (Math) { max(1); }', 'syntax error', 1],
];

describe('layer 1 rejects blocked modules and constructs in skill.mjs, naming construct and line', () => {
  it.each(hostile)('%s', async (_what, source, construct, line) => {
    const result = await validate(source, 'mjs');
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual(expect.objectContaining({ construct, line }));
  });

  it('reports every blocked construct of a module, in line order', async () => {
    const source = [
      "import fs from 'node:fs';",
      "import { exec } from 'node:child_process';",
      'export function run() {',
      "  return eval('1');",
      '}',
    ].join('\n');
    const result = await validate(source, 'mjs');
    expect(result.problems.map((problem) => [problem.construct, problem.line])).toEqual([
      ["import 'node:child_process'", 2],
      ['eval', 4],
    ]);
  });

  it('rejects a module nested too deeply to check instead of passing it', async () => {
    const source = `export const x = ${'['.repeat(100_000)}${']'.repeat(100_000)};`;
    const result = await validate(source, 'mjs');
    expect(result.ok).toBe(false);
    expect(result.problems[0]?.construct).toMatch(/nesting|syntax error/);
  });
});

/** Code that mentions the blocked names without reaching them. */
const benign: [string, string][] = [
  [
    'comments and strings naming blocked modules',
    "// never import 'child_process'\n/* eval */\nexport const note = () => 'child_process and eval are blocked';",
  ],
  [
    "Hearth's skill API (the Plugin base class, the gated shell and browser)",
    "import { Plugin, shell, browser } from 'hearth:skill';\nexport default class P extends Plugin { run() { return shell('ls'); } }",
  ],
  ['RegExp exec', "export const digits = (text) => /\\d+/.exec(text)?.[0] ?? '';"],
  [
    'fetch',
    'export async function weather(city) { return (await fetch(`https://wttr.in/${city}`)).text(); }',
  ],
  [
    'a method named like a blocked word',
    'export const score = (obj) => obj.evaluate() + obj.evalCount;',
  ],
  [
    'allowed built-ins',
    "import { readFile } from 'node:fs/promises';\nimport path from 'node:path';\nimport { createHash } from 'node:crypto';\nexport const h = () => createHash('sha256');",
  ],
  [
    'packages',
    "import { z } from 'zod';\nimport lodash from 'lodash';\nexport const f = () => z.string();",
  ],
  [
    'process.env and stdout',
    "export const key = () => process.env.API_KEY ?? process.cwd();\nprocess.stdout.write('');",
  ],
  [
    'safe destructuring of process',
    'const { env, platform } = process;\nexport const os = () => platform + env.HOME;',
  ],
  [
    'a typeof check',
    "export const node = () => typeof process !== 'undefined' && typeof globalThis === 'object';",
  ],
  [
    'a static import of process',
    "import process from 'node:process';\nexport const cwd = () => process.cwd();",
  ],
  [
    'constructor names and comparisons',
    'export const kind = (x) => x.constructor.name + (x.constructor === Object);',
  ],
  [
    'a class constructor',
    'class Store { constructor() { this.items = []; } }\nexport const make = () => new Store();',
  ],
  [
    'computed access on ordinary objects',
    'const table = { a: 1 };\nexport const get = (key) => table[key];',
  ],
  [
    'WebAssembly',
    'export const ok = async (bytes) => (await WebAssembly.instantiate(bytes)).instance;',
  ],
  ['import.meta', 'export const here = () => import.meta.dirname + import.meta.url;'],
  [
    'a literal dynamic import',
    "export const yaml = async () => (await import('node:util')).inspect({});",
  ],
  ['self as a variable', 'export function bind() { const self = this; return () => self; }'],
  [
    'arguments inside functions',
    'export function sum() { return [...arguments].reduce((a, b) => a + b, 0); }',
  ],
  [
    'timers and JSON',
    'export const later = () => new Promise((r) => setTimeout(() => r(JSON.parse("1")), 1));',
  ],
];

describe('layer 1 accepts ordinary skill code', () => {
  it.each(benign)('%s', async (_what, source) => {
    const result = await validate(source, 'mjs');
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
