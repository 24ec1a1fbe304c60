import { lineOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';

const NATIVE_MEMBERS: ReadonlySet<string> = new Set(['binding', '_linkedBinding', 'dlopen']);

/** `process.binding(…)`, `process._linkedBinding(…)`, `process.dlopen(…)` reach native code. */
export const processBinding: ScanRule<'blocked.process-binding'> = {
  meta: {
    name: 'process-binding',
    description: 'calls into Node internals or native code through process',
    findings: { 'blocked.process-binding': 'critical' },
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression') return;
        if (callee.object.type !== 'Identifier' || callee.object.name !== 'process') return;
        const prop = propertyName(callee);
        if (prop === undefined || !NATIVE_MEMBERS.has(prop)) return;
        const at = lineOf(node);
        context.report('blocked.process-binding', at, `process.${prop} reaches native code`);
        context.facts.runsCode.push(at);
      },
    };
  },
};
