import { parse } from 'acorn';
import type { SkillKind } from '../ports.ts';

interface Node {
  type: string;
  [key: string]: unknown;
}

const extendsPlugin = (node: Node): boolean => {
  const superClass = node.superClass as Node | null | undefined;
  if (!superClass) return false;
  if (superClass.type === 'Identifier') return superClass.name === 'Plugin';
  if (superClass.type === 'MemberExpression')
    return (
      (superClass.property as Node).type === 'Identifier' &&
      (superClass.property as Node).name === 'Plugin'
    );
  return false;
};

/**
 * Whether a module is a plugin: it default-exports a class extending `Plugin` (a module that
 * does not parse is not; the validator reports why). For `skill.py`, a top-level
 * `class X(Plugin):`.
 */
export function isPluginSource(source: string, kind: SkillKind): boolean {
  if (kind === 'py') return /^class\s+\w+\s*\(\s*(?:\w+\.)?Plugin\s*\)\s*:/m.test(source);
  let program: Node;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as Node;
  } catch {
    return false;
  }
  const body = program.body as Node[];
  const pluginClasses = new Set<string>();
  for (const statement of body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration'
        ? (statement.declaration as Node | null)
        : statement;
    if (declaration?.type === 'ClassDeclaration' && extendsPlugin(declaration))
      pluginClasses.add((declaration.id as Node).name as string);
  }
  for (const statement of body) {
    if (statement.type !== 'ExportDefaultDeclaration') continue;
    const declaration = statement.declaration as Node;
    if (declaration.type === 'ClassDeclaration' || declaration.type === 'ClassExpression')
      return extendsPlugin(declaration);
    if (declaration.type === 'Identifier') return pluginClasses.has(declaration.name as string);
  }
  return false;
}
