/**
 * The built-in modules a skill may not load: one list for layer 1 (the validator refuses the
 * skill) and layer 2 (the scanner flags the package), so the two never disagree on a name.
 */

export interface BlockedModule {
  /** Why a skill may not load it; layer 1's message is `<name> is blocked: <reason>`. */
  reason: string;
  /** Blocked only as `node:<name>`: without the prefix the name is an npm package. */
  prefixedOnly?: true;
  /**
   * Layer 1 lets a static import through, because it follows the imported name as it follows
   * the global (`import p from 'node:process'; p.binding` is `process.binding`), and refuses
   * only a dynamic one. The scanner does not follow names, so it flags every import.
   */
  staticImportFollowed?: true;
}

/** Keyed by the module's name without the `node:` prefix. */
export const blockedModules: ReadonlyMap<string, BlockedModule> = new Map([
  ['child_process', { reason: 'it starts processes' }],
  ['cluster', { reason: 'it forks processes' }],
  ['worker_threads', { reason: 'it runs code in new threads, from strings too' }],
  ['vm', { reason: 'it compiles and runs code from strings' }],
  ['v8', { reason: 'it changes engine flags and deserializes heap objects' }],
  ['inspector', { reason: 'it drives the debugger, which runs arbitrary code' }],
  ['module', { reason: 'it builds require() and registers loader hooks' }],
  ['repl', { reason: 'it evaluates code from strings' }],
  ['wasi', { reason: 'it hands a WebAssembly module system calls, files included' }],
  ['trace_events', { reason: 'it switches on tracing of Node internals, written to files' }],
  ['test', { reason: 'its run() starts processes', prefixedOnly: true }],
  [
    'process',
    {
      reason: 'a dynamic import hides which of its members are used',
      staticImportFollowed: true,
    },
  ],
]);

/**
 * The blocked module a specifier names (`node:child_process`, `child_process/x`), with its name
 * as the list spells it, or undefined. Scoped packages (`@scope/vm`) are never built-ins.
 */
export function blockedModuleOf(specifier: string): (BlockedModule & { name: string }) | undefined {
  const prefixed = specifier.startsWith('node:');
  const name = prefixed ? specifier.slice('node:'.length) : specifier;
  if (name.startsWith('@')) return undefined;
  const base = name.split('/')[0] ?? '';
  const entry = blockedModules.get(base);
  if (!entry || (entry.prefixedOnly && !prefixed)) return undefined;
  return { ...entry, name: base };
}
