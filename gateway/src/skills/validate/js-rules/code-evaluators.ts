import type { AnyNode } from 'acorn';
import { codeEvaluators } from '../blocked.ts';
import type { BlockedRule } from './contract.ts';

/** `eval`, `Function`, `ShadowRealm` wherever they are referenced. */
export const codeEvaluatorNames: BlockedRule = {
  meta: {
    name: 'code-evaluators',
    description: 'references a global that runs code from strings',
  },
  create(context) {
    return {
      Identifier(node, parent) {
        const evaluator = codeEvaluators.get(node.name);
        if (evaluator)
          context.report(
            node,
            evaluatorConstruct(node.name, node, parent),
            `${node.name} is blocked: ${evaluator}`,
          );
      },
    };
  },
};

function evaluatorConstruct(name: string, node: AnyNode, parent: AnyNode | undefined): string {
  if (name === 'eval') return 'eval';
  if (parent?.type === 'NewExpression' && parent.callee === node) return `new ${name}`;
  if (parent?.type === 'CallExpression' && parent.callee === node) return `${name}(…)`;
  if (parent?.type === 'TaggedTemplateExpression' && parent.tag === node) return `${name}\`…\``;
  return name;
}
