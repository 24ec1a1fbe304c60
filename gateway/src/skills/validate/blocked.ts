/**
 * What layer 1 rejects in a skill, and why. This is a floor, not the sandbox: the skill host
 * (layer 3) runs every skill under Node's permission model, which is what actually denies
 * processes, workers, addons and files outside the skill's folders. Layer 1 refuses the
 * spellings that reach those things or hide code from review (the scanner, layer 2), so that
 * a rejected skill is never written at all.
 *
 * The blocked built-in modules are `../blocked-modules.ts`, a list shared with the scanner.
 * Allowed on purpose: every other built-in module and package (`node:fs`, `node:http`,
 * `node:sqlite`, `fetch`, timers, `WebAssembly` — a wasm module can only call the functions
 * the skill hands it, so it adds no capability), `process.env`/`process.stdout` and other plain
 * `process.<name>` reads, computed member access on ordinary objects, and any text in comments
 * and strings. Which files and hosts a skill reaches is layer 3's business, not this one's.
 */

/** Packages whose only job is loading native addons. */
export const nativeAddonLoaders: ReadonlySet<string> = new Set(['bindings', 'node-gyp-build']);

/** `process.<name>` members that load native code, reach internals or replace the process. */
export const blockedProcessMembers: ReadonlyMap<string, string> = new Map([
  ['binding', 'it reaches Node internals'],
  ['_linkedBinding', 'it reaches Node internals'],
  ['dlopen', 'it loads native code'],
  ['getBuiltinModule', 'it loads any built-in module, the blocked ones too'],
  ['execve', 'it replaces the process with another program'],
  ['mainModule', 'it reaches require()'],
]);

/**
 * Property names blocked on any object: the code evaluators and the `.constructor` walk
 * (`(() => {}).constructor('…')` is `Function`), and SQLite's native extension loading.
 */
export const blockedProperties: ReadonlyMap<string, string> = new Map([
  ['eval', 'it runs code from strings'],
  ['Function', 'it compiles code from strings'],
  ['constructor', 'a function’s constructor is Function, which compiles code from strings'],
  ['loadExtension', 'it loads native code'],
  ['enableLoadExtension', 'it loads native code'],
]);

/** Globals that run code from strings wherever they are referenced. */
export const codeEvaluators: ReadonlyMap<string, string> = new Map([
  ['eval', 'it runs code from strings'],
  ['Function', 'it compiles code from strings'],
  ['ShadowRealm', 'it evaluates code from strings'],
]);

/**
 * Node's names of the global object: `globalThis.eval` is `eval`. (`self` and `window` do not
 * exist in Node, so `const self = this` stays an ordinary variable.)
 */
export const globalObjectNames: ReadonlySet<string> = new Set(['globalThis', 'global']);

/** The spec's list (rule 16), exactly, for `skill.py`; the Python helper holds the same list. */
export const blockedPythonModules: readonly string[] = [
  'subprocess',
  'ctypes',
  'winreg',
  'msvcrt',
  'pty',
  'tty',
  'termios',
  'fcntl',
];
