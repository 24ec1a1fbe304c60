/**
 * Runs the scanner's rules over a parsed module in one walk: each rule's `create` is called
 * once, and every node is handed to the visitors of its type, in the order the rules are listed.
 * Before the walk, aliases of the global objects are collected (so a use above the declaration
 * resolves too); during it, the names bound by imports, and each module the code names.
 */
import type { AnyNode, Comment, Program } from 'acorn';
import { ancestor, simple, type AncestorVisitors } from 'acorn-walk';
import type { ModuleFacts } from '../facts.ts';
import type { FindingSink } from '../findings.ts';
import type { ModuleReference, ScanRule } from './contract.ts';
import { GLOBAL_OBJECTS } from './globals.ts';

type Visit = (node: AnyNode, ancestors: AnyNode[]) => void;
type Walker = (node: AnyNode, state: unknown, ancestors: AnyNode[]) => void;

/** Node types that can name a module (`ModuleReference` is dispatched from them). */
const REFERENCING = [
  'ImportDeclaration',
  'ExportNamedDeclaration',
  'ExportAllDeclaration',
  'ImportExpression',
  'CallExpression',
];

export function runScanRules(
  rules: readonly ScanRule[],
  program: Program,
  comments: readonly Comment[],
  facts: ModuleFacts,
  sink: FindingSink,
): void {
  const aliases = globalAliases(program);
  const imports = new Map<string, string>(); // local name → module it was imported from
  const visits = new Map<string, Visit[]>();
  const onReference: Array<(reference: ModuleReference) => void> = [];

  for (const rule of rules) {
    const visitors = rule.create({
      facts,
      comments,
      imports,
      aliases,
      report: (finding, line, message) =>
        sink.add(finding, line, rule.meta.findings[finding]!, message),
    });
    for (const [type, visit] of Object.entries(visitors)) {
      if (visit === undefined) continue;
      if (type === 'ModuleReference') {
        onReference.push(visit as (reference: ModuleReference) => void);
        continue;
      }
      const list = visits.get(type) ?? [];
      list.push(visit as Visit);
      visits.set(type, list);
    }
  }

  const walkers: Record<string, Walker> = {};
  for (const type of new Set([...visits.keys(), ...REFERENCING])) {
    const list = visits.get(type) ?? [];
    walkers[type] = (node, _state, ancestors) => {
      if (node.type === 'ImportDeclaration' && typeof node.source.value === 'string') {
        const from = node.source.value.replace(/^node:/, '');
        for (const spec of node.specifiers) imports.set(spec.local.name, from);
      }
      const reference = moduleReference(node);
      if (reference) for (const visit of onReference) visit(reference);
      for (const visit of list) visit(node, ancestors);
    };
  }
  ancestor(program, walkers as AncestorVisitors<unknown>);
}

/** `const p = process; p.env`: local names given to a global object. */
function globalAliases(program: Program): Map<string, string> {
  const aliases = new Map<string, string>();
  simple(program, {
    VariableDeclarator(node) {
      if (
        node.id.type === 'Identifier' &&
        node.init?.type === 'Identifier' &&
        GLOBAL_OBJECTS.has(node.init.name)
      ) {
        aliases.set(node.id.name, node.init.name);
      }
    },
  });
  return aliases;
}

/** The module a node names with a string: an import or re-export, `import('…')`, `require('…')`. */
function moduleReference(node: AnyNode): ModuleReference | undefined {
  let specifier: unknown;
  let dynamic = false;
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportAllDeclaration':
      specifier = node.source.value;
      break;
    case 'ExportNamedDeclaration':
      specifier = node.source?.value;
      break;
    case 'ImportExpression':
      if (node.source.type === 'Literal') specifier = node.source.value;
      dynamic = true;
      break;
    case 'CallExpression': {
      const callee = node.callee;
      const argument = node.arguments[0];
      if (callee.type !== 'Identifier') return undefined;
      if (callee.name !== 'require' && callee.name !== 'createRequire') return undefined;
      if (argument?.type === 'Literal') specifier = argument.value;
      dynamic = true;
      break;
    }
    default:
      return undefined;
  }
  if (typeof specifier !== 'string') return undefined;
  const name = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  return { specifier, name, dynamic, remote: isRemote(name), node };
}

function isRemote(name: string): boolean {
  const lower = name.toLowerCase();
  return ['http:', 'https:', 'data:', 'blob:'].some((scheme) => lower.startsWith(scheme));
}
