/**
 * What layer 1 knows about a module before checking it: the names process is imported under,
 * the strings each variable is ever given, and so which expressions are the global object,
 * process, require or module (`globalThis.process`, `import p from 'node:process'`).
 */
import type { AnyNode, Program } from 'acorn';
import { simple } from 'acorn-walk';
import { codeEvaluators, globalObjectNames } from '../blocked.ts';
import { staticString } from '../static-value.ts';
import { importedName, isProcessModule, memberKey } from './names.ts';

/** Names whose uses are checked wherever they appear: the global object, process, require. */
type Root = 'globalThis' | 'process' | 'require' | 'module';
export const roots: ReadonlySet<string> = new Set<Root>([
  'globalThis',
  'process',
  'require',
  'module',
]);

export interface ModuleScope {
  /** Strings a variable is ever given (`const k = 'constr' + 'uctor'`), to check `f[k]` with. */
  knownStrings: ReadonlyMap<string, ReadonlySet<string>>;
  /** The root or code evaluator an expression is (`globalThis.eval` → `eval`), if any. */
  canonical(node: AnyNode): string | undefined;
}

export function moduleScope(program: Program): ModuleScope {
  // `import process from 'node:process'` and `import * as p from 'process'` name process too.
  const processAliases = new Set<string>(['process']);
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || !isProcessModule(statement.source.value))
      continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type !== 'ImportSpecifier') processAliases.add(specifier.local.name);
      else if (importedName(specifier.imported) === 'default')
        processAliases.add(specifier.local.name);
    }
  }

  const knownStrings = new Map<string, Set<string>>();
  const remember = (name: string, value: AnyNode | null | undefined): void => {
    const text = value ? staticString(value) : undefined;
    if (text === undefined) return;
    const values = knownStrings.get(name) ?? new Set<string>();
    values.add(text);
    knownStrings.set(name, values);
  };
  simple(program, {
    VariableDeclarator(node) {
      if (node.id.type === 'Identifier') remember(node.id.name, node.init);
    },
    AssignmentExpression(node) {
      if (node.left.type === 'Identifier') remember(node.left.name, node.right);
    },
  });

  const canonical = (node: AnyNode): string | undefined => {
    if (node.type === 'ChainExpression') return canonical(node.expression);
    if (node.type === 'Identifier') {
      if (globalObjectNames.has(node.name)) return 'globalThis';
      if (processAliases.has(node.name)) return 'process';
      if (roots.has(node.name) || codeEvaluators.has(node.name)) return node.name;
      return undefined;
    }
    if (node.type !== 'MemberExpression') return undefined;
    const object = canonical(node.object);
    const key = memberKey(node);
    if (object === 'globalThis' && key !== undefined) {
      if (globalObjectNames.has(key)) return 'globalThis';
      if (roots.has(key) || codeEvaluators.has(key)) return key;
    }
    // `import * as p from 'node:process'`: p.default is process.
    if (object === 'process' && key === 'default') return 'process';
    return undefined;
  };

  return { knownStrings, canonical };
}
