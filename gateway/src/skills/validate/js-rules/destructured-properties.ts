import { blockedProperties } from '../blocked.ts';
import type { BlockedRule } from './contract.ts';
import { propertyKey } from './names.ts';

/** `const { constructor } = f`: a blocked property taken by destructuring. */
export const destructuredProperties: BlockedRule = {
  meta: {
    name: 'destructured-properties',
    description: 'destructures a blocked property',
  },
  create(context) {
    return {
      ObjectPattern(node) {
        for (const property of node.properties) {
          if (property.type !== 'Property') continue;
          const key = propertyKey(property.key, property.computed);
          const reason = key === undefined ? undefined : blockedProperties.get(key);
          if (reason)
            context.report(property, `{ ${key} } (destructured)`, `.${key} is blocked: ${reason}`);
        }
      },
    };
  },
};
