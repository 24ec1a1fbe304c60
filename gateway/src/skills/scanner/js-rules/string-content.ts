import type { AnyNode, Expression, SpreadElement } from 'acorn';
import { isEncodedBlob } from '../facts.ts';
import { hasInvisible, injectionPhrase, secretRequest } from '../markers.ts';
import { recordText } from '../text-facts.ts';
import { foldConcat, isPropertyKey, lineOf, parentOf, propertyName } from './ast.ts';
import type { ScanContext, ScanRule } from './contract.ts';

type Finding =
  | 'injection.hidden-text'
  | 'injection.secret-request'
  | 'injection.tool-description'
  | 'injection.string';

const DESCRIPTION_KEYS = [
  'description',
  'instructions',
  'prompt',
  'summary',
  'system',
  'help',
  'usage',
];

/**
 * What the module's strings say: markers (paths, hosts, shell one-liners) for the combination
 * rules, encoded blobs, and instructions aimed at the model — in a description, where the model
 * reads them, or anywhere else. Strings built from pieces (`'a' + 'b'`, `[…].join('')`) too.
 */
export const stringContent: ScanRule<Finding> = {
  meta: {
    name: 'string-content',
    description: 'strings carry markers, blobs or instructions to the model',
    findings: {
      'injection.hidden-text': 'high',
      'injection.secret-request': 'high',
      'injection.tool-description': 'high',
      'injection.string': 'medium',
    },
  },
  create(context) {
    /** `const a = '…'` (or a chain of such): what a later `a + b` spells. */
    const consts = new Map<string, string>();
    return {
      Literal(node, ancestors) {
        if (typeof node.value !== 'string' || isPropertyKey(node, ancestors)) return;
        const parent = parentOf(ancestors);
        if (parent?.type === 'Property' && !parent.computed && keyName(parent.key) === 'name')
          context.facts.ownTools.push(node.value);
        stringSeen(context, node.value, node, ancestors);
      },
      TemplateLiteral(node, ancestors) {
        const text = node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' X ');
        stringSeen(context, text, node, ancestors);
      },
      BinaryExpression(node, ancestors) {
        const parent = parentOf(ancestors);
        if (
          node.operator !== '+' ||
          (parent?.type === 'BinaryExpression' && parent.operator === '+')
        )
          return;
        const folded = foldConcat(node, false, (name) => consts.get(name));
        if (folded !== undefined) stringSeen(context, folded, node, ancestors);
      },
      VariableDeclarator(node, ancestors) {
        const declaration = parentOf(ancestors);
        if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') return;
        if (node.id.type !== 'Identifier' || !node.init) return;
        const init = node.init;
        const value =
          init.type === 'Literal' && typeof init.value === 'string'
            ? init.value
            : init.type === 'BinaryExpression'
              ? foldConcat(init, false, (name) => consts.get(name))
              : undefined;
        // Bounded: a hostile module cannot grow the table past what it spelled out itself.
        if (value !== undefined && value.length <= 10_000) consts.set(node.id.name, value);
      },
      CallExpression(node, ancestors) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || propertyName(callee) !== 'join') return;
        if (callee.object.type !== 'ArrayExpression') return;
        // ['.', 's', 's', 'h'].join('') spells a path without a literal holding it.
        const folded = joinLiterals(callee.object.elements, node.arguments[0]);
        if (folded !== undefined) stringSeen(context, folded, node, ancestors);
      },
    };
  },
};

function stringSeen(
  context: ScanContext<Finding>,
  value: string,
  at: AnyNode,
  ancestors: AnyNode[],
): void {
  const line = lineOf(at);
  const describes = isDescriptionLike(ancestors);
  recordText(context.facts, value, line, { description: describes });
  if (describes) context.facts.descriptions.push({ text: value, line });
  const phrase = injectionPhrase(value);
  const invisible = hasInvisible(value);
  if (invisible && describes)
    context.report('injection.hidden-text', line, 'a description holds invisible characters');
  const request = describes && phrase === undefined ? secretRequest(value) : undefined;
  if (request)
    context.report(
      'injection.secret-request',
      line,
      `a description asks the model for secrets: "${request}"`,
    );
  if (phrase) {
    if (describes)
      context.report(
        'injection.tool-description',
        line,
        `a description tells the model: "${phrase}"`,
      );
    else context.report('injection.string', line, `a string tells the model: "${phrase}"`);
  }
  if (isEncodedBlob(value)) context.facts.blob.push(line);
}

function keyName(key: AnyNode): string | undefined {
  if (key.type === 'Identifier') return key.name;
  return key.type === 'Literal' ? String(key.value) : undefined;
}

/** A string that sits where a model will read it: a description-like property or constant. */
function isDescriptionLike(ancestors: AnyNode[]): boolean {
  for (let i = ancestors.length - 2; i >= 0 && i >= ancestors.length - 6; i--) {
    const a = ancestors[i]!;
    let name: string | undefined;
    if (a.type === 'Property' && !a.computed) {
      name =
        a.key.type === 'Identifier'
          ? a.key.name
          : a.key.type === 'Literal'
            ? String(a.key.value)
            : undefined;
    } else if (a.type === 'VariableDeclarator' && a.id.type === 'Identifier') {
      name = a.id.name;
    } else if (a.type === 'AssignmentExpression' && a.left.type === 'MemberExpression') {
      name = propertyName(a.left);
    }
    if (name !== undefined) {
      const lower = name.toLowerCase();
      return DESCRIPTION_KEYS.some((k) => lower.includes(k));
    }
  }
  return false;
}

function joinLiterals(
  elements: ReadonlyArray<Expression | SpreadElement | null>,
  separator: Expression | SpreadElement | undefined,
): string | undefined {
  let sep = ',';
  if (separator !== undefined) {
    if (separator.type !== 'Literal' || typeof separator.value !== 'string') return undefined;
    sep = separator.value;
  }
  let literals = 0;
  const parts = elements.map((el) => {
    if (el?.type === 'Literal' && (typeof el.value === 'string' || typeof el.value === 'number')) {
      literals++;
      return String(el.value);
    }
    return ' X ';
  });
  return literals >= 2 ? parts.join(sep) : undefined;
}
