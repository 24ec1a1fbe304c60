import type { AnyNode, Class, Comment, Program } from 'acorn';
import type { SkillProblem, SkillToolSpec } from '../types.ts';
import { parseJsDoc } from './jsdoc.ts';
import { isNotStatic, staticValue } from './static-value.ts';

/**
 * The tools an ES module skill exports, read from its syntax (nothing is run):
 * - every exported function (`export [async] function f`, `export const f = (…) => …` or a
 *   function expression, `export { f }` of a top-level function) whose name does not start
 *   with `_`; its description and parameters come from the JSDoc block right before it;
 * - and, when the module default-exports a class extending `Plugin`, each of that class's
 *   public methods (not static, not `constructor`, not `_name` or `#name`, not accessors),
 *   described by the JSDoc block before the method.
 * An exported `schema` object literal (`export const schema = { tool: {…} }`, or a plugin's
 * `static schema = {…}`) overrides a tool's parameters: an entry is either the parameters
 * JSON Schema itself or `{ description?, parameters }`, like the skill host reads it.
 */
export function extractJsTools(
  program: Program,
  comments: Comment[],
  source: string,
): { tools: SkillToolSpec[]; problems: SkillProblem[] } {
  const problems: SkillProblem[] = [];
  const docBefore = (position: number): string | undefined => {
    let found: Comment | undefined;
    for (const comment of comments) {
      if (comment.end > position) break;
      if (comment.type === 'Block' && comment.value.startsWith('*')) found = comment;
      else found = undefined;
    }
    if (!found || source.slice(found.end, position).trim() !== '') return undefined;
    return found.value;
  };
  const lineOf = (node: AnyNode): number => node.loc?.start.line ?? 1;

  const topLevelFunctions = new Map<string, { node: AnyNode; doc: string | undefined }>();
  const topLevelClasses = new Map<string, Class>();
  for (const statement of program.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (!declaration) continue;
    if (declaration.type === 'FunctionDeclaration' && declaration.id) {
      topLevelFunctions.set(declaration.id.name, {
        node: declaration,
        doc: docBefore(statement.start),
      });
    } else if (declaration.type === 'ClassDeclaration' && declaration.id) {
      topLevelClasses.set(declaration.id.name, declaration);
    } else if (declaration.type === 'VariableDeclaration') {
      for (const declarator of declaration.declarations) {
        const init = declarator.init;
        if (declarator.id.type !== 'Identifier' || !init) continue;
        if (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') {
          const doc =
            declaration.declarations.length === 1
              ? docBefore(statement.start)
              : docBefore(declarator.start);
          topLevelFunctions.set(declarator.id.name, { node: init, doc });
        }
      }
    }
  }

  const found: { name: string; doc: string | undefined; line: number }[] = [];
  let schemaNode: AnyNode | undefined;
  let plugin: Class[] | undefined;
  for (const statement of program.body) {
    if (statement.type === 'ExportNamedDeclaration' && !statement.source) {
      const declaration = statement.declaration;
      if (declaration?.type === 'FunctionDeclaration' && declaration.id) {
        found.push({
          name: declaration.id.name,
          doc: docBefore(statement.start),
          line: lineOf(statement),
        });
      } else if (declaration?.type === 'VariableDeclaration') {
        for (const declarator of declaration.declarations) {
          if (declarator.id.type !== 'Identifier') continue;
          const name = declarator.id.name;
          if (name === 'schema') schemaNode = declarator.init ?? declarator;
          const local = topLevelFunctions.get(name);
          if (local && local.node === declarator.init)
            found.push({ name, doc: local.doc, line: lineOf(declarator) });
        }
      }
      for (const specifier of statement.specifiers) {
        if (specifier.local.type !== 'Identifier') continue;
        const exported =
          specifier.exported.type === 'Identifier'
            ? specifier.exported.name
            : String(specifier.exported.value);
        const local = topLevelFunctions.get(specifier.local.name);
        if (local && exported !== 'default')
          found.push({ name: exported, doc: local.doc, line: lineOf(specifier) });
      }
    } else if (statement.type === 'ExportDefaultDeclaration') {
      const declaration = statement.declaration;
      const candidate =
        declaration.type === 'ClassDeclaration' || declaration.type === 'ClassExpression'
          ? declaration
          : declaration.type === 'Identifier'
            ? topLevelClasses.get(declaration.name)
            : undefined;
      if (candidate) plugin = pluginChain(candidate, topLevelClasses);
    }
  }

  // The plugin's own methods first, then those it inherits from its local base classes.
  const methods = new Set<string>();
  for (const [depth, cls] of (plugin ?? []).entries()) {
    for (const member of cls.body.body) {
      if (
        depth === 0 &&
        member.type === 'PropertyDefinition' &&
        member.static &&
        keyName(member.key) === 'schema'
      ) {
        schemaNode = member.value ?? member;
      }
      if (member.type !== 'MethodDefinition' || member.kind !== 'method' || member.static) continue;
      if (member.computed || member.key.type !== 'Identifier') continue;
      if (member.key.name === 'constructor' || methods.has(member.key.name)) continue;
      methods.add(member.key.name);
      found.push({ name: member.key.name, doc: docBefore(member.start), line: lineOf(member) });
    }
  }

  let schema: Record<string, unknown> = {};
  if (schemaNode) {
    const value = staticValue(schemaNode);
    if (isNotStatic(value) || typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({
        construct: 'schema',
        line: isNotStatic(value) ? value.line : lineOf(schemaNode),
        message:
          'schema must be an object literal of JSON values (it is read without running the skill)',
      });
    } else {
      schema = value as Record<string, unknown>;
    }
  }

  const tools: SkillToolSpec[] = [];
  const seen = new Set<string>();
  for (const { name, doc, line } of found) {
    if (name.startsWith('_')) continue;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      problems.push({
        construct: `tool ${name.slice(0, 80)}`,
        line,
        message: 'a tool name is 1 to 64 letters, digits, _ or -',
      });
      continue;
    }
    if (seen.has(name)) {
      problems.push({ construct: `tool ${name}`, line, message: `two tools are named ${name}` });
      continue;
    }
    seen.add(name);
    const parsed = doc === undefined ? undefined : parseJsDoc(doc);
    let description = parsed?.description ?? '';
    let parameters: Record<string, unknown> = parsed?.parameters ?? {
      type: 'object',
      properties: {},
    };
    const declared = schema[name];
    if (typeof declared === 'object' && declared !== null && !Array.isArray(declared)) {
      const entry = declared as Record<string, unknown>;
      if (typeof entry.parameters === 'object' && entry.parameters !== null) {
        parameters = entry.parameters as Record<string, unknown>;
        if (typeof entry.description === 'string') description = entry.description;
      } else {
        parameters = entry;
      }
    }
    tools.push({ name, description: description || name, parameters });
  }
  for (const name of Object.keys(schema)) {
    if (!seen.has(name)) {
      problems.push({
        construct: `schema.${name}`,
        line: schemaNode ? lineOf(schemaNode) : 1,
        message: `the schema describes ${name}, which is not an exported tool`,
      });
    }
  }
  return { tools, problems };
}

function keyName(key: AnyNode): string | undefined {
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'Literal' && typeof key.value === 'string') return key.value;
  return undefined;
}

/**
 * A plugin class and its local base classes, the class itself first, when the chain of
 * `extends` through top-level classes of the module ends at `Plugin`; otherwise undefined.
 */
export function pluginChain(
  candidate: Class,
  topLevelClasses: ReadonlyMap<string, Class>,
): Class[] | undefined {
  const chain: Class[] = [];
  for (let cls: Class | undefined = candidate; cls && chain.length < 16;) {
    if (chain.includes(cls)) return undefined;
    chain.push(cls);
    if (extendsPlugin(cls)) return chain;
    const superClass: Class['superClass'] = cls.superClass;
    cls = superClass?.type === 'Identifier' ? topLevelClasses.get(superClass.name) : undefined;
  }
  return undefined;
}

/** The top-level classes of a module by name (declared, or declared and exported). */
export function topLevelClassesOf(program: Program): Map<string, Class> {
  const classes = new Map<string, Class>();
  for (const statement of program.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type === 'ClassDeclaration' && declaration.id)
      classes.set(declaration.id.name, declaration);
  }
  return classes;
}

/** Whether a module default-exports a class whose `extends` chain ends at `Plugin`. */
export function defaultExportsPlugin(program: Program): boolean {
  const classes = topLevelClassesOf(program);
  for (const statement of program.body) {
    if (statement.type !== 'ExportDefaultDeclaration') continue;
    const declaration = statement.declaration;
    const candidate =
      declaration.type === 'ClassDeclaration' || declaration.type === 'ClassExpression'
        ? declaration
        : declaration.type === 'Identifier'
          ? classes.get(declaration.name)
          : undefined;
    return candidate !== undefined && pluginChain(candidate, classes) !== undefined;
  }
  return false;
}

/** `class … extends Plugin` or `extends something.Plugin`. */
export function extendsPlugin(node: Class): boolean {
  const superClass = node.superClass;
  if (!superClass) return false;
  if (superClass.type === 'Identifier') return superClass.name === 'Plugin';
  return (
    superClass.type === 'MemberExpression' &&
    !superClass.computed &&
    superClass.property.type === 'Identifier' &&
    superClass.property.name === 'Plugin'
  );
}
