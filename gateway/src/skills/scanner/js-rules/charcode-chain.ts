import type { Expression, SpreadElement } from 'acorn';
import { lineOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';

/**
 * A string spelled out of character codes: `String.fromCharCode(104, 105, …)`, `.apply` of it
 * on an array, or a long array of numbers in a module that calls `fromCharCode` anywhere.
 */
export const charcodeChain: ScanRule<'obfuscation.charcode-chain'> = {
  meta: {
    name: 'charcode-chain',
    description: 'spells a string out of character codes',
    findings: { 'obfuscation.charcode-chain': 'high' },
  },
  create(context) {
    let usesFromCharCode = false;
    const numberArrays: number[] = [];
    const spelled = (args: Array<Expression | SpreadElement>, at: number): void => {
      usesFromCharCode = true;
      if (countNumbers(args) < 8) return;
      context.report(
        'obfuscation.charcode-chain',
        at,
        'String.fromCharCode spells a string out of numbers',
      );
      context.facts.spelledOut.push(at);
    };
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression') return;
        const prop = propertyName(callee);
        const objectName = callee.object.type === 'Identifier' ? callee.object.name : undefined;
        if (objectName === 'String' && prop === 'fromCharCode')
          spelled(node.arguments, lineOf(node));
        if (
          (prop === 'apply' || prop === 'call') &&
          callee.object.type === 'MemberExpression' &&
          propertyName(callee.object) === 'fromCharCode'
        )
          spelled(node.arguments, lineOf(node));
      },
      ArrayExpression(node) {
        let numbers = 0;
        for (const el of node.elements)
          if (el?.type === 'Literal' && typeof el.value === 'number') numbers++;
        if (numbers >= 16) numberArrays.push(lineOf(node));
      },
      Program() {
        if (!usesFromCharCode) return;
        for (const at of numberArrays) {
          context.report(
            'obfuscation.charcode-chain',
            at,
            'an array of character codes turned into a string',
          );
          context.facts.spelledOut.push(at);
        }
      },
    };
  },
};

/** Numeric literals among call arguments, counting into a spread or an array argument. */
function countNumbers(args: Array<Expression | SpreadElement>): number {
  let count = 0;
  for (const arg of args) {
    const inner = arg.type === 'SpreadElement' ? arg.argument : arg;
    if (inner.type === 'Literal' && typeof inner.value === 'number') count++;
    else if (inner.type === 'ArrayExpression') {
      for (const el of inner.elements)
        if (el?.type === 'Literal' && typeof el.value === 'number') count++;
    }
  }
  return count;
}
