/**
 * Every blocked module and construct in a parsed ES module (see `../blocked.ts` and
 * `../../blocked-modules.ts` for the lists and what stays allowed). Identifiers are compared by
 * their decoded names, so `\u0065val` is `eval`; member keys built from string pieces
 * (`'ev' + 'al'`, templates) are joined first. One walk calls every rule's visitors per node.
 */
import type { AnyNode, Program } from 'acorn';
import { fullAncestor } from 'acorn-walk';
import type { SkillProblem } from '../../types.ts';
import { blockedRules } from './index.ts';
import { moduleScope } from './scope.ts';

type Visit = (node: AnyNode, parent: AnyNode | undefined, ancestors: AnyNode[]) => void;

export function findBlockedConstructs(program: Program): SkillProblem[] {
  const problems: SkillProblem[] = [];
  const reported = new Set<string>();
  const report = (node: AnyNode, construct: string, message: string): void => {
    const key = `${node.start}:${construct}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push({ construct, line: node.loc?.start.line ?? 1, message });
  };
  const scope = moduleScope(program);
  const visitors = blockedRules.map((rule) => rule.create({ scope, report }));

  fullAncestor(program, (node, _state, ancestors) => {
    const parent = realParent(ancestors);
    for (const visitor of visitors) {
      const visit = visitor[node.type] as Visit | undefined;
      visit?.(node, parent, ancestors);
    }
  });
  problems.sort((a, b) => a.line - b.line);
  return problems;
}

/** The parent node, looking through optional-chain wrappers (`process?.binding`). */
function realParent(ancestors: AnyNode[]): AnyNode | undefined {
  for (let index = ancestors.length - 2; index >= 0; index -= 1) {
    const candidate = ancestors[index];
    if (candidate?.type !== 'ChainExpression' && candidate?.type !== 'ParenthesizedExpression')
      return candidate;
  }
  return undefined;
}
