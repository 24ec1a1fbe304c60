import { isStringish, lineOf, parentOf } from './ast.ts';
import type { ScanRule } from './contract.ts';

/** `eval` however it is reached, and timers handed a string, run text as code. */
export const evalRule: ScanRule<'blocked.eval'> = {
  meta: {
    name: 'eval',
    description: 'runs a string as code',
    findings: { 'blocked.eval': 'critical' },
  },
  create(context) {
    return {
      Identifier(node, ancestors) {
        if (node.name !== 'eval') return;
        const parent = parentOf(ancestors);
        if (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed)
          return;
        if (parent?.type === 'Property' && parent.key === node && !parent.computed) return;
        context.report('blocked.eval', lineOf(node), 'eval runs a string as code');
        context.facts.runsCode.push(lineOf(node));
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'Identifier') return;
        if (callee.name !== 'setTimeout' && callee.name !== 'setInterval') return;
        if (!isStringish(node.arguments[0])) return;
        const at = lineOf(node);
        context.report('blocked.eval', at, `${callee.name} with a string runs it as code`);
        context.facts.runsCode.push(at);
      },
    };
  },
};
