/** Readers of acorn nodes and the member rules shared by layer 1's rules. */
import type { AnyNode } from 'acorn';
import { blockedProcessMembers, codeEvaluators } from '../blocked.ts';
import { staticString } from '../static-value.ts';

export const comparisons: ReadonlySet<string> = new Set(['===', '!==', '==', '!=', 'instanceof']);

export const shorten = (text: string): string =>
  text.length > 60 ? `${text.slice(0, 57)}…` : text;

/** `x.name` → `name`; `x['na' + 'me']` → `name`; `x[i]` → undefined. */
export function memberKey(node: AnyNode): string | undefined {
  if (node.type !== 'MemberExpression') return undefined;
  if (!node.computed) {
    return node.property.type === 'Identifier'
      ? node.property.name
      : `#${String((node.property as { name: string }).name)}`;
  }
  return staticString(node.property);
}

export function propertyKey(key: AnyNode, computed: boolean): string | undefined {
  if (!computed && key.type === 'Identifier') return key.name;
  return staticString(key);
}

export function importedName(node: AnyNode): string {
  if (node.type === 'Identifier') return node.name;
  return node.type === 'Literal' ? String(node.value) : '';
}

export function isProcessModule(specifier: unknown): boolean {
  return specifier === 'process' || specifier === 'node:process';
}

/** Why `<root>.<key>` is blocked, if it is. */
export function rootMemberReason(root: string, key: string): string | undefined {
  if (root === 'process') {
    const reason = blockedProcessMembers.get(key);
    return reason ? `process.${key} is blocked: ${reason}` : undefined;
  }
  if (root === 'globalThis' && codeEvaluators.has(key))
    return `${key} is blocked: ${codeEvaluators.get(key)}`;
  if (root === 'module' && ['require', '_load', '_compile'].includes(key))
    return `module.${key} is blocked: it loads or compiles modules unchecked`;
  return undefined;
}
