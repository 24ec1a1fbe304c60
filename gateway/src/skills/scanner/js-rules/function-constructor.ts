import { constructedName, lineOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';

/** `Function(…)`, `new Function`, `new AsyncFunction`, `x.constructor(…)` build code from text. */
export const functionConstructor: ScanRule<'blocked.function-constructor'> = {
  meta: {
    name: 'function-constructor',
    description: 'builds a function from a string',
    findings: { 'blocked.function-constructor': 'critical' },
  },
  create(context) {
    return {
      NewExpression(node) {
        const name = constructedName(node);
        if (name !== 'Function' && name !== 'AsyncFunction') return;
        context.report(
          'blocked.function-constructor',
          lineOf(node),
          'new Function builds code from a string',
        );
        context.facts.runsCode.push(lineOf(node));
      },
      CallExpression(node) {
        const callee = node.callee;
        const at = lineOf(node);
        if (callee.type === 'Identifier' && callee.name === 'Function') {
          context.report(
            'blocked.function-constructor',
            at,
            'Function() builds code from a string',
          );
          context.facts.runsCode.push(at);
        } else if (
          callee.type === 'MemberExpression' &&
          propertyName(callee) === 'constructor' &&
          node.arguments.length > 0
        ) {
          context.report(
            'blocked.function-constructor',
            at,
            '.constructor(…) reaches the Function constructor',
          );
          context.facts.runsCode.push(at);
        }
      },
    };
  },
};
