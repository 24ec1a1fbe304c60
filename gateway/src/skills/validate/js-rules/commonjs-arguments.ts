import type { BlockedRule } from './contract.ts';

/** Run as CommonJS (a skill.js), the module wrapper's `arguments` hold require. */
export const commonjsArguments: BlockedRule = {
  meta: {
    name: 'commonjs-arguments',
    description: 'reads arguments outside a function',
  },
  create(context) {
    return {
      Identifier(node, _parent, ancestors) {
        if (node.name !== 'arguments') return;
        const inFunction = ancestors.some(
          (ancestor) =>
            ancestor.type === 'FunctionDeclaration' || ancestor.type === 'FunctionExpression',
        );
        if (inFunction) return;
        context.report(
          node,
          'arguments (outside a function)',
          'outside a function, arguments is the CommonJS wrapper’s, which holds require',
        );
      },
    };
  },
};
