import { lineOf, propertyName } from './ast.ts';
import { calledFunction } from './calls.ts';
import type { ScanRule } from './contract.ts';

const WASM_LOADERS: ReadonlySet<string> = new Set([
  'instantiate',
  'instantiateStreaming',
  'compile',
  'compileStreaming',
]);

/**
 * Calls that run code or a process without a finding of their own: anything from
 * `child_process` or `vm`, WebAssembly compilation. Facts only: the combination rules decide.
 */
export const codeLoaders: ScanRule<never> = {
  meta: {
    name: 'code-loaders',
    description: 'runs a process, a script or a WebAssembly module',
    findings: {},
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        const at = lineOf(node);
        if (
          callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'WebAssembly'
        ) {
          const prop = propertyName(callee);
          if (prop !== undefined && WASM_LOADERS.has(prop)) context.facts.runsCode.push(at);
        }
        const module = calledFunction(node, context.imports)?.module;
        if (module === 'child_process' || module === 'vm') context.facts.runsCode.push(at);
      },
    };
  },
};
