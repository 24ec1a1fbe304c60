import type { BlockedRule } from './contract.ts';
import { checkModuleArgument } from './specifiers.ts';

/** `import(…)` must name an allowed module with a string known before running. */
export const dynamicImport: BlockedRule = {
  meta: {
    name: 'dynamic-import',
    description: 'import() of a computed or blocked module',
  },
  create(context) {
    return {
      ImportExpression(node) {
        checkModuleArgument(context, node, node.source, 'import');
      },
    };
  },
};
