import type { AnyNode, CallExpression, Expression, SpreadElement } from 'acorn';
import { decodeLiteral, type LiteralEncoding } from '../decode-literal.ts';
import { recordText } from '../text-facts.ts';
import { lineOf, propertyName } from './ast.ts';
import { calledFunction } from './calls.ts';
import type { ScanRule } from './contract.ts';

const READS = new Set([
  'readFile',
  'readFileSync',
  'createReadStream',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
]);
const WRITES = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'rename',
  'renameSync',
]);
const WALKS = new Set(['readdir', 'readdirSync', 'opendir', 'opendirSync', 'glob', 'globSync']);
const FILE_MODULES = new Set(['fs', 'fs/promises']);
const HOME_VARIABLES = new Set(['HOME', 'USERPROFILE', 'LOCALAPPDATA', 'APPDATA']);
const STRING_EDITS = new Set(['replace', 'replaceAll', 'slice', 'substring', 'toString']);

const stringArg = (node: Expression | SpreadElement | undefined): string | undefined =>
  node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;

/**
 * Facts for the worm and stealer rules (`combine.ts`): the module reads its own code, lists
 * folders, starts paths at the home folder; the fs calls behind renamed imports
 * (`appendFileSync as add`) and computed names (`fs[op](…)`); and the text of literals
 * decoded in place (`Buffer.from('…', 'hex')`, `atob('…')`), which may name a path or host.
 */
export const selfCopy: ScanRule<never> = {
  meta: {
    name: 'self-copy',
    description: 'reads its own code, lists folders, reaches the home folder, decodes literals',
    findings: {},
  },
  create(context) {
    const { facts } = context;
    /** Local name → the fs function it was imported as. */
    const renamed = new Map<string, string>();
    /** Names holding the module's own path (`const me = fileURLToPath(import.meta.url)`). */
    const selfNames = new Set<string>();

    /** The module's own file: `import.meta.filename`, `import.meta.url` (or a string made of it), `fileURLToPath` or `new URL` of it, a name holding one. */
    function isSelf(node: AnyNode): boolean {
      if (node.type === 'Identifier') return selfNames.has(node.name);
      if (node.type === 'MemberExpression') {
        if (node.object.type === 'MetaProperty') {
          const key = propertyName(node);
          return key === 'url' || key === 'filename';
        }
        return false;
      }
      if (node.type === 'NewExpression')
        return node.arguments.length === 1 && isSelf(node.arguments[0]!);
      if (node.type === 'CallExpression') {
        const callee = node.callee;
        if (callee.type === 'Identifier' && callee.name === 'fileURLToPath')
          return node.arguments[0] !== undefined && isSelf(node.arguments[0]);
        // import.meta.url.replace('file://', ''), .slice(7): still the same file.
        if (callee.type === 'MemberExpression' && STRING_EDITS.has(propertyName(callee) ?? ''))
          return isSelf(callee.object);
      }
      return false;
    }

    function fileCall(name: string, at: number, first?: AnyNode): void {
      if (READS.has(name) && first !== undefined && isSelf(first)) facts.selfRead.push(at);
      if (READS.has(name)) facts.fileRead.push(at);
      if (WRITES.has(name)) facts.fileWrite.push(at);
      if (WALKS.has(name)) facts.dirWalk.push(at);
    }

    function decoded(node: CallExpression): void {
      const callee = node.callee;
      let encoding: LiteralEncoding | undefined;
      let value: string | undefined;
      if (callee.type === 'Identifier' && callee.name === 'atob') {
        encoding = 'base64';
        value = stringArg(node.arguments[0]);
      } else if (
        callee.type === 'MemberExpression' &&
        callee.object.type === 'Identifier' &&
        callee.object.name === 'Buffer' &&
        propertyName(callee) === 'from'
      ) {
        const enc = stringArg(node.arguments[1]);
        if (enc === 'hex' || enc === 'base64' || enc === 'base64url') {
          encoding = enc === 'hex' ? 'hex' : 'base64';
          value = stringArg(node.arguments[0]);
        }
      }
      if (encoding === undefined || value === undefined) return;
      const text = decodeLiteral(value, encoding);
      if (text !== undefined) recordText(facts, text, lineOf(node), { description: false });
    }

    return {
      ImportDeclaration(node) {
        const from = String(node.source.value).replace(/^node:/, '');
        if (!FILE_MODULES.has(from)) return;
        for (const spec of node.specifiers) {
          if (spec.type === 'ImportSpecifier' && spec.imported.type === 'Identifier')
            renamed.set(spec.local.name, spec.imported.name);
        }
      },
      CallExpression(node) {
        const at = lineOf(node);
        decoded(node);
        const callee = node.callee;
        const first = node.arguments[0];
        if (callee.type === 'Identifier' && renamed.has(callee.name))
          fileCall(renamed.get(callee.name)!, at, first);
        const called = calledFunction(node, context.imports);
        if (called !== undefined) {
          if (called.module === 'fs' || READS.has(called.name)) fileCall(called.name, at, first);
          else if (WALKS.has(called.name)) facts.dirWalk.push(at);
          if (called.name === 'homedir') facts.homePath.push(at);
        }
        // fs[op](…) with a name computed at run time: any file operation at all.
        if (
          callee.type === 'MemberExpression' &&
          callee.computed &&
          callee.object.type === 'Identifier' &&
          FILE_MODULES.has(context.imports.get(callee.object.name) ?? '') &&
          propertyName(callee) === undefined
        ) {
          facts.fileRead.push(at);
          facts.fileWrite.push(at);
          facts.dirWalk.push(at);
          if (first !== undefined && isSelf(first)) facts.selfRead.push(at);
        }
      },
      VariableDeclarator(node) {
        if (node.id.type === 'Identifier' && node.init && isSelf(node.init))
          selfNames.add(node.id.name);
      },
      MemberExpression(node) {
        // process.env.HOME, process.env['LOCALAPPDATA']
        const key = propertyName(node);
        const object = node.object;
        if (
          key !== undefined &&
          HOME_VARIABLES.has(key) &&
          object.type === 'MemberExpression' &&
          propertyName(object) === 'env'
        )
          facts.homePath.push(lineOf(node));
      },
    };
  },
};
