/**
 * The contract of a layer-1 rule, after ESLint's: `create(context)` returns visitors by node
 * type, which the runner (`find-blocked.ts`) calls for every node in one walk. A rule reports
 * the construct it refuses and why; the runner keeps one report per node and construct.
 */
import type { AnyNode } from 'acorn';
import type { ModuleScope } from './scope.ts';

export interface BlockedContext {
  readonly scope: ModuleScope;
  report(node: AnyNode, construct: string, message: string): void;
}

type NodeOfType<T extends AnyNode['type']> = Extract<AnyNode, { type: T }>;

/** `parent` looks through optional-chain and parenthesis wrappers (`process?.binding`). */
export type BlockedVisitors = {
  [T in AnyNode['type']]?: (
    node: NodeOfType<T>,
    parent: AnyNode | undefined,
    ancestors: AnyNode[],
  ) => void;
};

export interface BlockedRule {
  meta: { name: string; description: string };
  create(context: BlockedContext): BlockedVisitors;
}
