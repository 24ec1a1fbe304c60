import { staticString } from '../static-value.ts';
import type { BlockedRule } from './contract.ts';
import { memberKey, shorten } from './names.ts';
import { checkSpecifier } from './specifiers.ts';

/** `import.meta.resolve('node:child_process')`: resolving a blocked module is refused too. */
export const importMetaResolve: BlockedRule = {
  meta: {
    name: 'import-meta-resolve',
    description: 'import.meta.resolve of a blocked module',
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee =
          node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
        if (callee.type !== 'MemberExpression' || callee.object.type !== 'MetaProperty') return;
        if (memberKey(callee) !== 'resolve') return;
        const first = node.arguments[0];
        const specifier = first && first.type !== 'SpreadElement' ? staticString(first) : undefined;
        if (specifier !== undefined)
          checkSpecifier(context, node, specifier, `import.meta.resolve('${shorten(specifier)}')`, {
            dynamic: true,
            resolveOnly: true,
          });
      },
    };
  },
};
