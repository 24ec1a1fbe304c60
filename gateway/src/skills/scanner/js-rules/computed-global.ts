import { lineOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';
import { DANGEROUS_KEYS, globalObjectOf } from './globals.ts';

/** `process[k]`, `globalThis['eval']`, `Reflect.get(…)`: a global's member hidden from review. */
export const computedGlobal: ScanRule<'obfuscation.computed-global'> = {
  meta: {
    name: 'computed-global',
    description: 'reaches a member of a global object through a computed key',
    findings: { 'obfuscation.computed-global': 'high' },
  },
  create(context) {
    return {
      MemberExpression(node) {
        const objectName = globalObjectOf(node, context.aliases);
        if (objectName === undefined) return;
        const at = lineOf(node);
        const key = propertyName(node);
        if (node.computed && (key === undefined || DANGEROUS_KEYS.has(key))) {
          context.report(
            'obfuscation.computed-global',
            at,
            `${objectName}[…] hides which property it reaches`,
          );
        }
        if (objectName === 'Reflect' && key === 'get') {
          context.report(
            'obfuscation.computed-global',
            at,
            'Reflect.get hides which property it reaches',
          );
        }
      },
    };
  },
};
