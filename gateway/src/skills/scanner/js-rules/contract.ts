/**
 * The contract of a scanner rule, after ESLint's: `meta` says what the rule reports and how
 * severe each finding is; `create(context)` returns visitors by node type, which the runner
 * (`run-rules.ts`) calls during its one walk of the tree. A rule keeps its own state in the
 * closure `create` returns; what it learns for the combination rules goes into `context.facts`.
 */
import type { AnyNode, Comment } from 'acorn';
import type { ScanSeverity } from '../../types.ts';
import type { ModuleFacts } from '../facts.ts';

export interface ScanRuleMeta<Finding extends string> {
  /** The rule's file name (`eval`, `charcode-chain`). */
  name: string;
  description: string;
  /** Every finding the rule reports, with its severity; empty for a rule that only records facts. */
  findings: Readonly<Record<Finding, ScanSeverity>>;
}

/** A module named by `import`, `export … from`, `import('…')` or `require('…')`. */
export interface ModuleReference {
  specifier: string;
  /** The specifier without its `node:` prefix. */
  name: string;
  /** `import('…')` or `require('…')` rather than a declaration. */
  dynamic: boolean;
  /** A URL (`https:`, `data:`, `blob:`): code from elsewhere, not a module by name. */
  remote: boolean;
  node: AnyNode;
}

export interface ScanContext<Finding extends string> {
  readonly facts: ModuleFacts;
  readonly comments: readonly Comment[];
  /** Local names bound by the import declarations walked so far → module (without `node:`). */
  readonly imports: ReadonlyMap<string, string>;
  /** `const p = process`: local aliases of the global objects, from anywhere in the module. */
  readonly aliases: ReadonlyMap<string, string>;
  /** Reports a finding at a line, with the severity the rule's `meta` gives it. */
  report(finding: Finding, line: number, message: string): void;
}

type NodeOfType<T extends AnyNode['type']> = Extract<AnyNode, { type: T }>;

/**
 * Visitors run after the node's children (acorn-walk's order), so a `Program` visitor runs
 * last; `ancestors` ends with the node itself. `ModuleReference` is called for each module
 * named, at the node that names it.
 */
export type ScanVisitors = {
  [T in AnyNode['type']]?: (node: NodeOfType<T>, ancestors: AnyNode[]) => void;
} & {
  ModuleReference?: (reference: ModuleReference) => void;
};

export interface ScanRule<Finding extends string = string> {
  meta: ScanRuleMeta<Finding>;
  create(context: ScanContext<Finding>): ScanVisitors;
}
