/** Small readers of acorn nodes shared by the scanner's rules. */
import type {
  AnyNode,
  Expression,
  MemberExpression,
  NewExpression,
  SpreadElement,
  Super,
} from 'acorn';

export const lineOf = (node: { loc?: { start: { line: number } } | null }): number =>
  node.loc?.start.line ?? 1;

/** The node's parent in an acorn-walk `ancestors` list (which ends with the node). */
export const parentOf = (ancestors: readonly AnyNode[]): AnyNode | undefined =>
  ancestors[ancestors.length - 2];

/** Whether the node is the key of an object literal's property (`{ key: … }`). */
export function isPropertyKey(node: AnyNode, ancestors: readonly AnyNode[]): boolean {
  const parent = parentOf(ancestors);
  return parent?.type === 'Property' && parent.key === node && !parent.computed;
}

/** `x.name`, `x['name']`, `` x[`name`] `` → `name`; anything computed → undefined. */
export function propertyName(node: MemberExpression): string | undefined {
  const p = node.property;
  if (!node.computed && p.type === 'Identifier') return p.name;
  if (p.type === 'Literal' && typeof p.value === 'string') return p.value;
  if (p.type === 'TemplateLiteral' && p.expressions.length === 0)
    return p.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** `new Worker(…)` → `Worker`; `new vm.Script(…)` → `Script`. */
export function constructedName(node: NewExpression): string | undefined {
  const callee = node.callee;
  if (callee.type === 'Identifier') return callee.name;
  return callee.type === 'MemberExpression' ? propertyName(callee) : undefined;
}

/** The text of a template literal without substitutions. */
export function templateText(node: AnyNode): string | undefined {
  return node.type === 'TemplateLiteral' && node.expressions.length === 0
    ? (node.quasis[0]?.value.cooked ?? undefined)
    : undefined;
}

export function isStringish(node: Expression | SpreadElement | undefined): boolean {
  return (
    (node?.type === 'Literal' && typeof node.value === 'string') ||
    node?.type === 'TemplateLiteral' ||
    node?.type === 'BinaryExpression'
  );
}

export function isLongLiteral(node: Expression | SpreadElement | undefined): boolean {
  return node?.type === 'Literal' && typeof node.value === 'string' && node.value.length >= 40;
}

/** The string a `'a' + 'b' + …` chain of literals spells, or undefined when a part is not one. */
export function foldConcat(
  node: Expression | Super | AnyNode,
  literalOnly = false,
  /** The string a `const` name holds, when known. */
  resolve?: (name: string) => string | undefined,
): string | undefined {
  const parts: string[] = [];
  const stack: AnyNode[] = [node];
  let pieces = 0;
  let resolved = 0;
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (++pieces > 10_000) return undefined;
    if (n.type === 'BinaryExpression' && n.operator === '+') {
      stack.push(n.right, n.left);
    } else if (
      n.type === 'Literal' &&
      (typeof n.value === 'string' || typeof n.value === 'number')
    ) {
      parts.push(String(n.value));
    } else if (n.type === 'Identifier' && resolve?.(n.name) !== undefined) {
      const value = resolve(n.name)!;
      // A bounded budget: names can repeat a long constant many times over.
      resolved += value.length;
      if (resolved > 100_000) return undefined;
      parts.push(value);
    } else if (n.type === 'TemplateLiteral' && (!literalOnly || n.expressions.length === 0)) {
      parts.push(n.quasis.map((q) => q.value.cooked ?? '').join(' X '));
    } else if (literalOnly) {
      return undefined;
    } else {
      parts.push(' X ');
    }
  }
  return parts.length > 1 ? parts.join('') : undefined;
}
