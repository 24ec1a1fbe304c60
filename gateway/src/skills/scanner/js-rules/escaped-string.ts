import { countEscapes } from '../facts.ts';
import { isPropertyKey, lineOf } from './ast.ts';
import type { ScanRule } from './contract.ts';

/** A string literal spelled in `\x`/`\u` escapes hides what it says from a reader. */
export const escapedString: ScanRule<'obfuscation.escaped-string'> = {
  meta: {
    name: 'escaped-string',
    description: 'a string literal written in escapes',
    findings: { 'obfuscation.escaped-string': 'high' },
  },
  create(context) {
    return {
      Literal(node, ancestors) {
        if (typeof node.value !== 'string' || isPropertyKey(node, ancestors)) return;
        if (!node.raw || countEscapes(node.raw) < 8) return;
        context.report(
          'obfuscation.escaped-string',
          lineOf(node),
          'a string literal spelled in \\x/\\u escapes',
        );
        context.facts.spelledOut.push(lineOf(node));
      },
    };
  },
};
