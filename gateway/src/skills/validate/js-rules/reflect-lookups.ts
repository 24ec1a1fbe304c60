import { blockedProcessMembers, blockedProperties, codeEvaluators } from '../blocked.ts';
import { staticString } from '../static-value.ts';
import type { BlockedRule } from './contract.ts';
import { memberKey } from './names.ts';

/** `Reflect.get(f, 'constructor')`, `Object.getOwnPropertyDescriptor(process, 'binding')`… */
export const reflectLookups: BlockedRule = {
  meta: {
    name: 'reflect-lookups',
    description: 'names a blocked member as a string to Reflect or Object',
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee =
          node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
        if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier') return;
        const objectName = callee.object.name;
        if (objectName !== 'Reflect' && objectName !== 'Object') return;
        for (const argument of node.arguments) {
          if (argument.type === 'SpreadElement') continue;
          const text = staticString(argument);
          if (text === undefined) continue;
          const reason =
            blockedProperties.get(text) ??
            blockedProcessMembers.get(text) ??
            codeEvaluators.get(text);
          if (reason)
            context.report(
              argument,
              `${objectName}.${memberKey(callee) ?? '[…]'}(…, '${text}')`,
              `.${text} is blocked: ${reason}`,
            );
        }
      },
    };
  },
};
