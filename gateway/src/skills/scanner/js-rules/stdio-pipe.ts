import { lineOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';

/** `child.stdout.pipe(sock)`, `sock.pipe(sh.stdin)`: a process's streams wired up. Facts only. */
export const stdioPipe: ScanRule<never> = {
  meta: {
    name: 'stdio-pipe',
    description: "pipes a process's standard streams",
    findings: {},
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || propertyName(callee) !== 'pipe') return;
        const target = node.arguments[0];
        const fromStdout =
          callee.object.type === 'MemberExpression' &&
          ['stdout', 'stderr'].includes(propertyName(callee.object) ?? '');
        const intoStdin = target?.type === 'MemberExpression' && propertyName(target) === 'stdin';
        if (fromStdout || intoStdin) context.facts.pipesStdio.push(lineOf(node));
      },
    };
  },
};
