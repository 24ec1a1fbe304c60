import type { AnyNode, MemberExpression } from 'acorn';
import { blockedProperties, codeEvaluators } from '../blocked.ts';
import type { BlockedContext, BlockedRule } from './contract.ts';
import { comparisons, memberKey, rootMemberReason } from './names.ts';
import { checkRootUse } from './root-use.ts';
import { roots } from './scope.ts';

/**
 * Members: `import.meta.require`, `process.binding`, `globalThis.eval`, `.constructor` on
 * anything, computed keys on process and the global object (resolved through the strings a
 * variable is given), and `globalThis.process` used as a value.
 */
export const memberAccess: BlockedRule = {
  meta: {
    name: 'member-access',
    description: 'reaches a blocked member, or a root through a computed key',
  },
  create(context) {
    return {
      MemberExpression(node, parent) {
        const key = memberKey(node);
        if (node.object.type === 'MetaProperty') {
          if (key === undefined)
            context.report(node, 'import.meta[<expression>]', 'import.meta members must be named');
          else if (key === 'require')
            context.report(
              node,
              'import.meta.require',
              'import.meta.require is blocked: it loads modules',
            );
          return;
        }
        const objectRoot = context.scope.canonical(node.object);
        if (key === undefined) {
          computedMember(context, node, objectRoot);
          return;
        }
        const ownRoot = context.scope.canonical(node);
        if (objectRoot === 'globalThis' && ownRoot && codeEvaluators.has(ownRoot)) {
          context.report(
            node,
            `globalThis.${ownRoot}`,
            `${ownRoot} is blocked: ${codeEvaluators.get(ownRoot)}`,
          );
          return;
        }
        if (objectRoot) {
          const reason = rootMemberReason(objectRoot, key);
          if (reason) {
            context.report(node, `${objectRoot}.${key}`, reason);
            return;
          }
        }
        const property = blockedProperties.get(key);
        if (property && !(key === 'constructor' && harmlessConstructorUse(node, parent))) {
          context.report(node, `.${key}`, `.${key} is blocked: ${property}`);
          return;
        }
        if (ownRoot && roots.has(ownRoot)) checkRootUse(context, node, ownRoot, parent);
      },
    };
  },
};

/** `x[k]`: blocked when a string `k` is ever given is, and always on a root. */
function computedMember(
  context: BlockedContext,
  node: MemberExpression,
  objectRoot: string | undefined,
): void {
  const variable = node.property.type === 'Identifier' ? node.property.name : undefined;
  for (const value of (variable && context.scope.knownStrings.get(variable)) || []) {
    const reason =
      (objectRoot && rootMemberReason(objectRoot, value)) ?? blockedProperties.get(value);
    if (reason) {
      context.report(node, `[${variable}] (${value})`, reason);
      return;
    }
  }
  if (objectRoot && roots.has(objectRoot))
    context.report(
      node,
      `${objectRoot}[<expression>]`,
      `${objectRoot} may only be read by a literal name, so what is reached can be checked`,
    );
}

/** `x.constructor.name` and `x.constructor === Y` only read; anything else may reach Function. */
function harmlessConstructorUse(node: AnyNode, parent: AnyNode | undefined): boolean {
  if (parent?.type === 'MemberExpression' && parent.object === node && memberKey(parent) === 'name')
    return true;
  return parent?.type === 'BinaryExpression' && comparisons.has(parent.operator);
}
