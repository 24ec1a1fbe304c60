import type { AnyNode } from 'acorn';

/**
 * The string an expression always evaluates to, when that is knowable without running it:
 * string literals, templates without substitutions, and `+` chains of those
 * (`'ev' + 'al'`, `` `child_${'process'}` ``). Anything else is `undefined`.
 */
export function staticString(node: AnyNode): string | undefined {
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' || typeof node.value === 'number'
        ? String(node.value)
        : undefined;
    case 'TemplateLiteral': {
      let text = node.quasis[0]?.value.cooked ?? undefined;
      if (text === undefined) return undefined;
      for (const [index, expression] of node.expressions.entries()) {
        const part = staticString(expression);
        const next = node.quasis[index + 1]?.value.cooked;
        if (part === undefined || next === undefined || next === null) return undefined;
        text += part + next;
      }
      return text;
    }
    case 'BinaryExpression': {
      if (node.operator !== '+' || node.left.type === 'PrivateIdentifier') return undefined;
      const left = staticString(node.left);
      const right = left === undefined ? undefined : staticString(node.right);
      return left === undefined || right === undefined ? undefined : left + right;
    }
    case 'ParenthesizedExpression':
      return staticString(node.expression);
    default:
      return undefined;
  }
}

/** Marks a value that is not a literal, with where the first non-literal part is. */
export interface NotStatic {
  notStatic: true;
  line: number;
}

/**
 * The value of a JSON-like literal (objects with plain keys, arrays, strings, numbers,
 * booleans, null, negative numbers): what an exported `schema` must be. Nothing is run.
 */
export function staticValue(node: AnyNode): unknown {
  const fail = (at: AnyNode): NotStatic => ({ notStatic: true, line: at.loc?.start.line ?? 1 });
  switch (node.type) {
    case 'Literal':
      if (node.value === null || ['string', 'number', 'boolean'].includes(typeof node.value))
        return node.value;
      return fail(node);
    case 'TemplateLiteral':
      return staticString(node) ?? fail(node);
    case 'UnaryExpression':
      if (node.operator === '-' && node.argument.type === 'Literal') {
        return typeof node.argument.value === 'number' ? -node.argument.value : fail(node);
      }
      return fail(node);
    case 'ArrayExpression': {
      const items: unknown[] = [];
      for (const element of node.elements) {
        if (!element || element.type === 'SpreadElement') return fail(element ?? node);
        const value = staticValue(element);
        if (isNotStatic(value)) return value;
        items.push(value);
      }
      return items;
    }
    case 'ObjectExpression': {
      const entries: [string, unknown][] = [];
      for (const property of node.properties) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method)
          return fail(property);
        const key = property.computed
          ? staticString(property.key)
          : property.key.type === 'Identifier'
            ? property.key.name
            : property.key.type === 'Literal'
              ? String(property.key.value)
              : undefined;
        if (key === undefined || key === '__proto__') return fail(property);
        const value = staticValue(property.value);
        if (isNotStatic(value)) return value;
        entries.push([key, value]);
      }
      return Object.fromEntries(entries);
    }
    default:
      return fail(node);
  }
}

export function isNotStatic(value: unknown): value is NotStatic {
  return typeof value === 'object' && value !== null && 'notStatic' in value;
}
