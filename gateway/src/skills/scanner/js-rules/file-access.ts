import { lineOf } from './ast.ts';
import { calledFunction } from './calls.ts';
import type { ScanRule } from './contract.ts';

const READ_CALLS: ReadonlySet<string> = new Set([
  'readFile',
  'readFileSync',
  'createReadStream',
  'readdir',
  'readdirSync',
  'opendir',
  'opendirSync',
  'glob',
  'globSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
]);

const WRITE_CALLS: ReadonlySet<string> = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'copyFile',
  'copyFileSync',
  'symlink',
  'symlinkSync',
  'rename',
  'renameSync',
]);

const CHMOD_CALLS: ReadonlySet<string> = new Set([
  'chmod',
  'chmodSync',
  'fchmod',
  'fchmodSync',
  'lchmod',
]);

/** Where the module reads, writes or changes the mode of files. Facts only. */
export const fileAccess: ScanRule<never> = {
  meta: {
    name: 'file-access',
    description: 'reads, writes or chmods files',
    findings: {},
  },
  create(context) {
    const { facts } = context;
    return {
      CallExpression(node) {
        const called = calledFunction(node, context.imports);
        if (called === undefined) return;
        const at = lineOf(node);
        if (READ_CALLS.has(called.name)) facts.fileRead.push(at);
        if (WRITE_CALLS.has(called.name)) facts.fileWrite.push(at);
        if (CHMOD_CALLS.has(called.name)) facts.chmod.push(at);
      },
    };
  },
};
