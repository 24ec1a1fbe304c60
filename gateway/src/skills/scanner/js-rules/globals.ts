/** The global objects a skill reaches the platform through, and how a member names one. */
import type { MemberExpression, VariableDeclarator } from 'acorn';
import { propertyName } from './ast.ts';

export const GLOBAL_OBJECTS: ReadonlySet<string> = new Set([
  'process',
  'globalThis',
  'global',
  'window',
  'self',
  'require',
  'module',
  'Reflect',
]);

/** Properties of the global objects that reach code, processes or the environment. */
export const DANGEROUS_KEYS: ReadonlySet<string> = new Set([
  'env',
  'mainModule',
  'binding',
  '_linkedBinding',
  'dlopen',
  'eval',
  'Function',
  'require',
  'constructor',
  'process',
  'child_process',
  'execSync',
  'exec',
  'spawn',
  'import',
  '__proto__',
]);

/**
 * The global object a member is read from (`process.env`, `p.env` after `const p = process`,
 * `globalThis.process.env`), or undefined when the object is not one.
 */
export function globalObjectOf(
  node: MemberExpression,
  aliases: ReadonlyMap<string, string>,
): string | undefined {
  const object = node.object;
  const name =
    object.type === 'Identifier'
      ? (aliases.get(object.name) ?? object.name)
      : object.type === 'MemberExpression' && propertyName(object) === 'process'
        ? 'process'
        : undefined;
  return name !== undefined && GLOBAL_OBJECTS.has(name) ? name : undefined;
}

/** `const { env, binding } = process` (or an alias of it) → the keys taken, in order. */
export function keysTakenFromProcess(
  node: VariableDeclarator,
  aliases: ReadonlyMap<string, string>,
): string[] {
  if (
    node.init?.type !== 'Identifier' ||
    (aliases.get(node.init.name) ?? node.init.name) !== 'process' ||
    node.id.type !== 'ObjectPattern'
  )
    return [];
  const keys: string[] = [];
  for (const p of node.id.properties) {
    if (p.type !== 'Property') continue;
    if (p.key.type === 'Identifier') keys.push(p.key.name);
    else if (p.key.type === 'Literal') keys.push(String(p.key.value));
  }
  return keys;
}
