import { foldConcat, lineOf, templateText } from './ast.ts';
import type { ScanRule } from './contract.ts';
import { DANGEROUS_KEYS, GLOBAL_OBJECTS } from './globals.ts';

const SPLIT_NAME_TARGETS: ReadonlySet<string> = new Set([
  ...DANGEROUS_KEYS,
  ...GLOBAL_OBJECTS,
  'globalThis',
  'child_process',
  'node:child_process',
  'fetch',
  'execSync',
  'spawnSync',
]);

/** `x['ev' + 'al']`, `` x[`exec`] ``: a dangerous name built out of pieces. */
export const splitName: ScanRule<'obfuscation.split-name'> = {
  meta: {
    name: 'split-name',
    description: 'builds a dangerous member name out of pieces',
    findings: { 'obfuscation.split-name': 'high' },
  },
  create(context) {
    return {
      MemberExpression(node) {
        const property = node.property;
        if (!node.computed) return;
        if (property.type !== 'BinaryExpression' && property.type !== 'TemplateLiteral') return;
        const key =
          property.type === 'BinaryExpression'
            ? foldConcat(property, true)
            : templateText(property);
        if (key === undefined || !SPLIT_NAME_TARGETS.has(key)) return;
        context.report(
          'obfuscation.split-name',
          lineOf(node),
          `[…] builds the name "${key}" out of pieces`,
        );
      },
    };
  },
};
