import type { BlockedRule } from './contract.ts';
import { checkRootUse } from './root-use.ts';
import { roots } from './scope.ts';

/** `process`, `require`, `module`, the global object used other than by a named member. */
export const rootIdentifiers: BlockedRule = {
  meta: {
    name: 'root-identifiers',
    description: 'uses process, require, module or the global object as a value',
  },
  create(context) {
    return {
      Identifier(node, parent) {
        const root = context.scope.canonical(node);
        if (root && roots.has(root)) checkRootUse(context, node, root, parent);
      },
    };
  },
};
