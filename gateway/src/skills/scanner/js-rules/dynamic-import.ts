import { lineOf } from './ast.ts';
import type { ScanRule } from './contract.ts';

/** `import(<expression>)`: which code loads is decided at run time. */
export const dynamicImport: ScanRule<'blocked.dynamic-import'> = {
  meta: {
    name: 'dynamic-import',
    description: 'imports a module named by an expression',
    findings: { 'blocked.dynamic-import': 'critical' },
  },
  create(context) {
    return {
      ImportExpression(node) {
        const src = node.source;
        if (src.type === 'Literal' && typeof src.value === 'string') return;
        context.report(
          'blocked.dynamic-import',
          lineOf(node),
          'import(<expression>) loads code chosen at run time',
        );
        context.facts.runsCode.push(lineOf(node));
      },
    };
  },
};
