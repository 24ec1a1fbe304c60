import { lineOf } from './ast.ts';
import { calledFunction } from './calls.ts';
import type { ScanRule } from './contract.ts';

const HOST_INFO_CALLS: ReadonlySet<string> = new Set(['hostname', 'userInfo', 'networkInterfaces']);

/** `os.hostname()`, `userInfo()`…: facts about the machine and its user. Facts only. */
export const hostInfo: ScanRule<never> = {
  meta: {
    name: 'host-info',
    description: 'collects facts about the host and user',
    findings: {},
  },
  create(context) {
    return {
      CallExpression(node) {
        const called = calledFunction(node, context.imports);
        if (called?.module === 'os' && HOST_INFO_CALLS.has(called.name))
          context.facts.hostInfo.push(lineOf(node));
      },
    };
  },
};
