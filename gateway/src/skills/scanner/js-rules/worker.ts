import { constructedName, lineOf } from './ast.ts';
import type { ScanRule } from './contract.ts';

/** `new Worker(…)`, `new vm.Script(…)`: code run outside the module. */
export const worker: ScanRule<'blocked.worker'> = {
  meta: {
    name: 'worker',
    description: 'starts a worker or compiles a script',
    findings: { 'blocked.worker': 'critical' },
  },
  create(context) {
    return {
      NewExpression(node) {
        const name = constructedName(node);
        if (name !== 'Worker' && name !== 'Script') return;
        context.report('blocked.worker', lineOf(node), `new ${name} runs code outside the module`);
        context.facts.runsCode.push(lineOf(node));
      },
    };
  },
};
