import type { AnyNode } from 'acorn';
import { globalObjectNames } from '../blocked.ts';
import type { BlockedContext } from './contract.ts';
import { comparisons, memberKey, propertyKey, rootMemberReason } from './names.ts';
import { roots } from './scope.ts';
import { checkModuleArgument } from './specifiers.ts';

/** A use of the global object, process, require or module other than reading a member. */
export function checkRootUse(
  context: BlockedContext,
  node: AnyNode,
  root: string,
  parent: AnyNode | undefined,
): void {
  if (root === 'require') {
    if (parent?.type === 'CallExpression' && parent.callee === node) {
      checkModuleArgument(context, parent, parent.arguments[0], 'require');
      return;
    }
    if (parent?.type === 'MemberExpression' && parent.object === node) {
      const key = memberKey(parent);
      if (key === 'resolve') return;
      context.report(
        parent,
        `require.${key ?? '[<expression>]'}`,
        'require may only be called with a string literal',
      );
      return;
    }
    context.report(
      node,
      'require (as a value)',
      'require may only be called with a string literal',
    );
    return;
  }
  if (parent?.type === 'MemberExpression' && parent.object === node) return; // the member check
  if (parent?.type === 'UnaryExpression' && parent.operator === 'typeof') return;
  if (parent?.type === 'BinaryExpression' && comparisons.has(parent.operator)) return;
  if (
    parent?.type === 'VariableDeclarator' &&
    parent.init === node &&
    parent.id.type === 'ObjectPattern'
  ) {
    let safe = true;
    for (const property of parent.id.properties) {
      const key =
        property.type === 'Property' ? propertyKey(property.key, property.computed) : undefined;
      if (key === undefined) {
        safe = false;
        continue;
      }
      const reason =
        rootMemberReason(root, key) ??
        (root === 'globalThis' && (roots.has(key) || globalObjectNames.has(key))
          ? `${key} may not be taken out of the global object, so its uses can be checked`
          : undefined);
      if (reason) context.report(property, `${root}.${key}`, reason);
    }
    if (safe) return;
  }
  context.report(
    node,
    `${root} (as a value)`,
    `${root} may only be used to read a named member (${root}.name), so what is reached can be checked`,
  );
}
