import { lineOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';

/** `fetch(url).then(r => r.text()).then(eval)`: a download handed straight to the evaluator. */
export const fetchAndEval: ScanRule<'download.fetch-and-eval'> = {
  meta: {
    name: 'fetch-and-eval',
    description: 'hands a promise result to eval or Function',
    findings: { 'download.fetch-and-eval': 'critical' },
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || propertyName(callee) !== 'then') return;
        const evaluator = node.arguments.some(
          (a) => a.type === 'Identifier' && (a.name === 'eval' || a.name === 'Function'),
        );
        if (!evaluator) return;
        const at = lineOf(node);
        context.report(
          'download.fetch-and-eval',
          at,
          'a promise result is handed to eval/Function',
        );
        context.facts.runsCode.push(at);
      },
    };
  },
};
