import { lineOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';

const GLOBAL_NAMES: ReadonlySet<string> = new Set(['globalThis', 'window', 'global', 'self']);

/** Globals a skill has no business replacing (a hooked fetch swaps wallet addresses). */
const PLATFORM_APIS: ReadonlySet<string> = new Set([
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'Request',
  'Response',
  'ethereum',
  'solana',
  'crypto',
  'JSON',
  'eval',
  'Function',
  'require',
  'process',
  'setTimeout',
  'setInterval',
  'console',
  'navigator',
  'Date',
]);

const BUILTIN_CLASSES: ReadonlySet<string> = new Set([
  'XMLHttpRequest',
  'Response',
  'Request',
  'WebSocket',
  'Function',
  'Object',
  'Array',
  'String',
  'Promise',
  'JSON',
  'EventTarget',
]);

/** `globalThis.fetch = …`, `Array.prototype.push = …`: the platform replaced under everyone. */
export const globalOverride: ScanRule<'tamper.global-override'> = {
  meta: {
    name: 'global-override',
    description: "replaces a platform global or a built-in class's prototype method",
    findings: { 'tamper.global-override': 'high' },
  },
  create(context) {
    return {
      AssignmentExpression(node) {
        const left = node.left;
        if (left.type !== 'MemberExpression') return;
        const key = propertyName(left);
        if (key === undefined) return;
        const target = left.object;
        const onGlobal =
          target.type === 'Identifier' && GLOBAL_NAMES.has(target.name) && PLATFORM_APIS.has(key);
        const onPrototype =
          target.type === 'MemberExpression' &&
          propertyName(target) === 'prototype' &&
          target.object.type === 'Identifier' &&
          BUILTIN_CLASSES.has(target.object.name);
        if (!onGlobal && !onPrototype) return;
        context.report(
          'tamper.global-override',
          lineOf(node),
          `replaces the platform's ${onPrototype ? 'prototype method' : 'global'} ${key}`,
        );
      },
    };
  },
};
