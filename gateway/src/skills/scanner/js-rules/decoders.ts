import { isLongLiteral, lineOf, propertyName } from './ast.ts';
import type { ScanRule } from './contract.ts';

const BLOB_ENCODINGS: ReadonlySet<string> = new Set(['base64', 'base64url', 'hex']);

/** `atob('…')`, `Buffer.from('…', 'base64')` on a long literal: a payload unpacked. Facts only. */
export const decoders: ScanRule<never> = {
  meta: {
    name: 'decoders',
    description: 'decodes a long embedded literal',
    findings: {},
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        const at = lineOf(node);
        if (callee.type === 'Identifier') {
          if (callee.name === 'atob' && isLongLiteral(node.arguments[0]))
            context.facts.decodesBlob.push(at);
          return;
        }
        if (callee.type !== 'MemberExpression') return;
        if (callee.object.type !== 'Identifier' || callee.object.name !== 'Buffer') return;
        if (propertyName(callee) !== 'from' || !isLongLiteral(node.arguments[0])) return;
        const enc = node.arguments[1];
        if (
          enc?.type === 'Literal' &&
          typeof enc.value === 'string' &&
          BLOB_ENCODINGS.has(enc.value)
        )
          context.facts.decodesBlob.push(at);
      },
    };
  },
};
