/** What a call reaches: the function's name and the module it came from, when known. */
import type { CallExpression } from 'acorn';
import { propertyName } from './ast.ts';

export interface CalledFunction {
  name: string;
  /** The module's first path segment (`fs` for `fs/promises`), or the object's name. */
  module: string | undefined;
}

/**
 * `readFile(…)` imported from `node:fs`, `fs.readFile(…)`, `x.y.readFile(…)` (module unknown).
 * A plain call of a name that was not imported is not classified.
 */
export function calledFunction(
  node: CallExpression,
  imports: ReadonlyMap<string, string>,
): CalledFunction | undefined {
  const callee = node.callee;
  let from: string | undefined;
  let name: string | undefined;
  if (callee.type === 'Identifier') {
    name = callee.name;
    from = imports.get(name);
    if (from === undefined) return undefined;
  } else if (callee.type === 'MemberExpression') {
    name = propertyName(callee);
    const objectName = callee.object.type === 'Identifier' ? callee.object.name : undefined;
    from = objectName !== undefined ? (imports.get(objectName) ?? objectName) : undefined;
  }
  if (name === undefined) return undefined;
  return { name, module: from?.replace(/^node:/, '').split('/')[0] };
}
