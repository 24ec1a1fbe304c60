import type { AnyNode, MemberExpression } from 'acorn';
import { isSecretName, type ModuleFacts } from '../facts.ts';
import { lineOf, parentOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';
import { globalObjectOf, keysTakenFromProcess } from './globals.ts';

/**
 * Where the module reads the environment: all of it (`process.env`, `const { env } = process`,
 * a rest pattern) or a credential-like variable. Facts only: the combination rules decide.
 */
export const environment: ScanRule<never> = {
  meta: {
    name: 'environment',
    description: 'reads the whole environment or a credential-like variable',
    findings: {},
  },
  create(context) {
    return {
      VariableDeclarator(node) {
        // `const { env } = process` takes the whole environment without writing `process.env`.
        for (const key of keysTakenFromProcess(node, context.aliases))
          if (key === 'env') context.facts.envWhole.push(lineOf(node));
      },
      MemberExpression(node, ancestors) {
        if (globalObjectOf(node, context.aliases) !== 'process') return;
        if (propertyName(node) === 'env') envSeen(context.facts, node, ancestors);
      },
    };
  },
};

function envSeen(facts: ModuleFacts, node: MemberExpression, ancestors: AnyNode[]): void {
  const at = lineOf(node);
  const parent = parentOf(ancestors);
  if (parent?.type === 'MemberExpression' && parent.object === node) {
    const name = propertyName(parent);
    if (name === undefined) facts.envWhole.push(at);
    else if (isSecretName(name)) facts.envSecret.push(at);
    return;
  }
  if (
    parent?.type === 'VariableDeclarator' &&
    parent.init === node &&
    parent.id.type === 'ObjectPattern'
  ) {
    for (const p of parent.id.properties) {
      if (p.type === 'RestElement') facts.envWhole.push(at);
      else if (p.key.type === 'Identifier' && isSecretName(p.key.name)) facts.envSecret.push(at);
      else if (
        p.key.type === 'Literal' &&
        typeof p.key.value === 'string' &&
        isSecretName(p.key.value)
      )
        facts.envSecret.push(at);
    }
    return;
  }
  facts.envWhole.push(at);
}
