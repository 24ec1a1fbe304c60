import type { AnyNode, Program } from 'acorn';
import { fullAncestor, simple } from 'acorn-walk';
import type { SkillProblem } from '../types.ts';
import {
  blockedModules,
  blockedPrefixedModules,
  blockedProcessMembers,
  blockedProperties,
  codeEvaluators,
  globalObjectNames,
  nativeAddonLoaders,
} from './blocked.ts';
import { staticString } from './static-value.ts';

/** Names whose uses are checked wherever they appear: the global object, process, require. */
type Root = 'globalThis' | 'process' | 'require' | 'module';
const roots: ReadonlySet<string> = new Set<Root>(['globalThis', 'process', 'require', 'module']);

const comparisons = new Set(['===', '!==', '==', '!=', 'instanceof']);

const shorten = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

/**
 * Every blocked module and construct in a parsed ES module (see blocked.ts for the lists and
 * what stays allowed). Identifiers are compared by their decoded names, so `\u0065val` is
 * `eval`; member keys built from string pieces (`'ev' + 'al'`, templates) are joined first.
 */
export function findBlockedConstructs(program: Program): SkillProblem[] {
  const problems: SkillProblem[] = [];
  const reported = new Set<string>();
  const report = (node: AnyNode, construct: string, message: string): void => {
    const key = `${node.start}:${construct}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push({ construct, line: node.loc?.start.line ?? 1, message });
  };

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

  // Strings a variable is ever given (`const k = 'constr' + 'uctor'`), to check `f[k]` with.
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

  const checkSpecifier = (
    node: AnyNode,
    specifier: string,
    construct: string,
    options: { dynamic: boolean; resolveOnly?: boolean },
  ): void => {
    const reason = blockedSpecifierReason(specifier, options);
    if (reason) report(node, construct, reason);
  };

  const checkModuleArgument = (
    node: AnyNode,
    argument: AnyNode | undefined,
    form: 'import' | 'require',
  ): void => {
    const specifier =
      argument && argument.type !== 'SpreadElement' ? staticString(argument) : undefined;
    if (specifier === undefined) {
      report(
        node,
        `${form}(<expression>)`,
        `${form}() must name its module with a string literal, so the module can be checked`,
      );
      return;
    }
    checkSpecifier(node, specifier, `${form}('${shorten(specifier)}')`, { dynamic: true });
  };

  /** A use of the global object, process, require or module other than reading a member. */
  const checkRootUse = (node: AnyNode, root: string, parent: AnyNode | undefined): void => {
    if (root === 'require') {
      if (parent?.type === 'CallExpression' && parent.callee === node) {
        checkModuleArgument(parent, parent.arguments[0], 'require');
        return;
      }
      if (parent?.type === 'MemberExpression' && parent.object === node) {
        const key = memberKey(parent);
        if (key === 'resolve') return;
        report(
          parent,
          `require.${key ?? '[<expression>]'}`,
          'require may only be called with a string literal',
        );
        return;
      }
      report(node, 'require (as a value)', 'require may only be called with a string literal');
      return;
    }
    if (parent?.type === 'MemberExpression' && parent.object === node) return; // the member check
    if (parent?.type === 'UnaryExpression' && parent.operator === 'typeof') return;
    if (parent?.type === 'BinaryExpression' && comparisons.has(parent.operator)) return;
    if (
      parent?.type === 'VariableDeclarator' &&
      parent.init === node &&
      parent.id.type === 'ObjectPattern'
    ) {
      let safe = true;
      for (const property of parent.id.properties) {
        const key =
          property.type === 'Property' ? propertyKey(property.key, property.computed) : undefined;
        if (key === undefined) {
          safe = false;
          continue;
        }
        const reason =
          rootMemberReason(root, key) ??
          (root === 'globalThis' && (roots.has(key) || globalObjectNames.has(key))
            ? `${key} may not be taken out of the global object, so its uses can be checked`
            : undefined);
        if (reason) report(property, `${root}.${key}`, reason);
      }
      if (safe) return;
    }
    report(
      node,
      `${root} (as a value)`,
      `${root} may only be used to read a named member (${root}.name), so what is reached can be checked`,
    );
  };

  const evaluatorConstruct = (name: string, node: AnyNode, parent: AnyNode | undefined): string => {
    if (name === 'eval') return 'eval';
    if (parent?.type === 'NewExpression' && parent.callee === node) return `new ${name}`;
    if (parent?.type === 'CallExpression' && parent.callee === node) return `${name}(…)`;
    if (parent?.type === 'TaggedTemplateExpression' && parent.tag === node) return `${name}\`…\``;
    return name;
  };

  fullAncestor(program, (node, _state, ancestors) => {
    const parent = realParent(ancestors);
    switch (node.type) {
      case 'ImportDeclaration': {
        const specifier = String(node.source.value);
        checkSpecifier(node, specifier, `import '${shorten(specifier)}'`, { dynamic: false });
        if (isProcessModule(specifier)) {
          for (const imported of node.specifiers) {
            if (imported.type !== 'ImportSpecifier') continue;
            const name = importedName(imported.imported);
            const reason = blockedProcessMembers.get(name);
            if (reason)
              report(
                imported,
                `import { ${name} } from '${specifier}'`,
                `process.${name} is blocked: ${reason}`,
              );
          }
        }
        return;
      }
      case 'ExportAllDeclaration':
      case 'ExportNamedDeclaration': {
        if (!node.source) return;
        const specifier = String(node.source.value);
        const construct = `export … from '${shorten(specifier)}'`;
        checkSpecifier(node, specifier, construct, { dynamic: false });
        if (isProcessModule(specifier)) {
          const names =
            node.type === 'ExportAllDeclaration'
              ? [...blockedProcessMembers.keys()]
              : node.specifiers.map((specifier) => importedName(specifier.local));
          const blocked = names.find((name) => blockedProcessMembers.has(name));
          if (blocked)
            report(
              node,
              construct,
              `process.${blocked} is blocked: ${blockedProcessMembers.get(blocked)}`,
            );
        }
        return;
      }
      case 'ImportExpression':
        checkModuleArgument(node, node.source, 'import');
        return;
      case 'Identifier': {
        const evaluator = codeEvaluators.get(node.name);
        if (evaluator) {
          report(
            node,
            evaluatorConstruct(node.name, node, parent),
            `${node.name} is blocked: ${evaluator}`,
          );
          return;
        }
        if (
          node.name === 'arguments' &&
          !ancestors.some(
            (ancestor) =>
              ancestor.type === 'FunctionDeclaration' || ancestor.type === 'FunctionExpression',
          )
        ) {
          // Run as CommonJS (a skill.js), the module wrapper's arguments hold require.
          report(
            node,
            'arguments (outside a function)',
            'outside a function, arguments is the CommonJS wrapper’s, which holds require',
          );
          return;
        }
        const root = canonical(node);
        if (root && roots.has(root)) checkRootUse(node, root, parent);
        return;
      }
      case 'MemberExpression': {
        const key = memberKey(node);
        if (node.object.type === 'MetaProperty') {
          if (key === undefined)
            report(node, 'import.meta[<expression>]', 'import.meta members must be named');
          else if (key === 'require')
            report(node, 'import.meta.require', 'import.meta.require is blocked: it loads modules');
          return;
        }
        const objectRoot = canonical(node.object);
        if (key === undefined) {
          const variable = node.property.type === 'Identifier' ? node.property.name : undefined;
          for (const value of (variable && knownStrings.get(variable)) || []) {
            const reason =
              (objectRoot && rootMemberReason(objectRoot, value)) ?? blockedProperties.get(value);
            if (reason) {
              report(node, `[${variable}] (${value})`, reason);
              return;
            }
          }
          if (objectRoot && roots.has(objectRoot))
            report(
              node,
              `${objectRoot}[<expression>]`,
              `${objectRoot} may only be read by a literal name, so what is reached can be checked`,
            );
          return;
        }
        const ownRoot = canonical(node);
        if (objectRoot === 'globalThis' && ownRoot && codeEvaluators.has(ownRoot)) {
          report(
            node,
            `globalThis.${ownRoot}`,
            `${ownRoot} is blocked: ${codeEvaluators.get(ownRoot)}`,
          );
          return;
        }
        if (objectRoot) {
          const reason = rootMemberReason(objectRoot, key);
          if (reason) {
            report(node, `${objectRoot}.${key}`, reason);
            return;
          }
        }
        const property = blockedProperties.get(key);
        if (property && !(key === 'constructor' && harmlessConstructorUse(node, parent))) {
          report(node, `.${key}`, `.${key} is blocked: ${property}`);
          return;
        }
        if (ownRoot && roots.has(ownRoot)) checkRootUse(node, ownRoot, parent);
        return;
      }
      case 'ObjectPattern':
        for (const property of node.properties) {
          if (property.type !== 'Property') continue;
          const key = propertyKey(property.key, property.computed);
          const reason = key === undefined ? undefined : blockedProperties.get(key);
          if (reason)
            report(property, `{ ${key} } (destructured)`, `.${key} is blocked: ${reason}`);
        }
        return;
      case 'CallExpression': {
        const callee =
          node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
        if (callee.type !== 'MemberExpression') return;
        if (callee.object.type === 'MetaProperty' && memberKey(callee) === 'resolve') {
          const first = node.arguments[0];
          const specifier =
            first && first.type !== 'SpreadElement' ? staticString(first) : undefined;
          if (specifier !== undefined)
            checkSpecifier(node, specifier, `import.meta.resolve('${shorten(specifier)}')`, {
              dynamic: true,
              resolveOnly: true,
            });
          return;
        }
        // Reflect.get(f, 'constructor'), Object.getOwnPropertyDescriptor(process, 'binding')…
        if (
          callee.object.type === 'Identifier' &&
          (callee.object.name === 'Reflect' || callee.object.name === 'Object')
        ) {
          for (const argument of node.arguments) {
            if (argument.type === 'SpreadElement') continue;
            const text = staticString(argument);
            if (text === undefined) continue;
            const reason =
              blockedProperties.get(text) ??
              blockedProcessMembers.get(text) ??
              codeEvaluators.get(text);
            if (reason)
              report(
                argument,
                `${callee.object.name}.${memberKey(callee) ?? '[…]'}(…, '${text}')`,
                `.${text} is blocked: ${reason}`,
              );
          }
        }
        return;
      }
      default:
        return;
    }
  });
  problems.sort((a, b) => a.line - b.line);
  return problems;
}

/** The parent node, looking through optional-chain wrappers (`process?.binding`). */
function realParent(ancestors: AnyNode[]): AnyNode | undefined {
  for (let index = ancestors.length - 2; index >= 0; index -= 1) {
    const candidate = ancestors[index];
    if (candidate?.type !== 'ChainExpression' && candidate?.type !== 'ParenthesizedExpression')
      return candidate;
  }
  return undefined;
}

/** `x.name` → `name`; `x['na' + 'me']` → `name`; `x[i]` → undefined. */
function memberKey(node: AnyNode): string | undefined {
  if (node.type !== 'MemberExpression') return undefined;
  if (!node.computed) {
    return node.property.type === 'Identifier'
      ? node.property.name
      : `#${String((node.property as { name: string }).name)}`;
  }
  return staticString(node.property);
}

function propertyKey(key: AnyNode, computed: boolean): string | undefined {
  if (!computed && key.type === 'Identifier') return key.name;
  return staticString(key);
}

function importedName(node: AnyNode): string {
  if (node.type === 'Identifier') return node.name;
  return node.type === 'Literal' ? String(node.value) : '';
}

function isProcessModule(specifier: unknown): boolean {
  return specifier === 'process' || specifier === 'node:process';
}

/** Why `<root>.<key>` is blocked, if it is. */
function rootMemberReason(root: string, key: string): string | undefined {
  if (root === 'process') {
    const reason = blockedProcessMembers.get(key);
    return reason ? `process.${key} is blocked: ${reason}` : undefined;
  }
  if (root === 'globalThis' && codeEvaluators.has(key))
    return `${key} is blocked: ${codeEvaluators.get(key)}`;
  if (root === 'module' && ['require', '_load', '_compile'].includes(key))
    return `module.${key} is blocked: it loads or compiles modules unchecked`;
  return undefined;
}

/** `x.constructor.name` and `x.constructor === Y` only read; anything else may reach Function. */
function harmlessConstructorUse(node: AnyNode, parent: AnyNode | undefined): boolean {
  if (parent?.type === 'MemberExpression' && parent.object === node && memberKey(parent) === 'name')
    return true;
  return parent?.type === 'BinaryExpression' && comparisons.has(parent.operator);
}

/**
 * The module Hearth gives a skill (`Plugin`, and the gated `shell`/`browser` of a skill that
 * declares them): the skill host resolves it to its own file, never to anything on disk.
 */
export const SKILL_API_SPECIFIER = 'hearth:skill';

/** Why a module specifier is refused, or undefined when it may be imported. */
export function blockedSpecifierReason(
  specifier: string,
  options: { dynamic: boolean; resolveOnly?: boolean },
): string | undefined {
  if (specifier === SKILL_API_SPECIFIER) return undefined;
  const prefixed = specifier.startsWith('node:');
  const name = prefixed ? specifier.slice('node:'.length) : specifier;
  if (!prefixed && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(specifier))
    return 'only built-in modules and packages may be imported, not URLs (data:, file:, http:…)';
  if (!options.resolveOnly && /^(\.|\/|\\)/.test(name))
    return 'a skill is one module: it may import built-in modules and packages, not files';
  const base = name.startsWith('@')
    ? name.split('/').slice(0, 2).join('/')
    : (name.split('/')[0] ?? '');
  const blocked =
    blockedModules.get(base) ?? (prefixed ? blockedPrefixedModules.get(base) : undefined);
  if (blocked) return `${base} is blocked: ${blocked}`;
  if (/\.node$/i.test(name)) return 'native addons (.node files) are blocked: they run native code';
  if (nativeAddonLoaders.has(base)) return `${base} is blocked: it loads native addons`;
  if (options.dynamic && !options.resolveOnly && base === 'process')
    return 'use the global process (or a static import of it), so its uses can be checked';
  return undefined;
}
