import { lineOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';
import { globalObjectOf, keysTakenFromProcess } from './globals.ts';

const PROCESS_LOADERS: ReadonlySet<string> = new Set(['mainModule', 'binding', 'dlopen']);

/**
 * CommonJS loading around the import checks: `require()`, `createRequire()`,
 * `process.mainModule`, and loaders taken out of process by destructuring.
 */
export const requireAccess: ScanRule<'blocked.require'> = {
  meta: {
    name: 'require-access',
    description: 'reaches require() or a native loader around the import checks',
    findings: { 'blocked.require': 'critical' },
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'Identifier') return;
        if (callee.name !== 'require' && callee.name !== 'createRequire') return;
        const at = lineOf(node);
        context.report(
          'blocked.require',
          at,
          `${callee.name}() loads CommonJS modules around the import checks`,
        );
        context.facts.runsCode.push(at);
      },
      VariableDeclarator(node) {
        for (const key of keysTakenFromProcess(node, context.aliases)) {
          if (!PROCESS_LOADERS.has(key)) continue;
          context.report('blocked.require', lineOf(node), `takes process.${key} out of process`);
          context.facts.runsCode.push(lineOf(node));
        }
      },
      MemberExpression(node) {
        if (globalObjectOf(node, context.aliases) !== 'process') return;
        if (propertyName(node) !== 'mainModule') return;
        context.report('blocked.require', lineOf(node), 'process.mainModule reaches require');
        context.facts.runsCode.push(lineOf(node));
      },
    };
  },
};
