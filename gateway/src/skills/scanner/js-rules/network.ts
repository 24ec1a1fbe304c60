import { constructedName, lineOf, propertyName } from './ast.ts';
import { calledFunction } from './calls.ts';
import type { ScanRule } from './contract.ts';
import { globalObjectOf } from './globals.ts';

const NETWORK_MODULES: ReadonlySet<string> = new Set([
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dns',
  'dns/promises',
  'dgram',
  'undici',
  'axios',
  'node-fetch',
  'got',
  'ws',
  'request',
  'superagent',
]);

const NETWORK_CALLS: ReadonlySet<string> = new Set([
  'request',
  'get',
  'post',
  'put',
  'connect',
  'createConnection',
  'createSocket',
  'lookup',
  'resolve',
  'resolve4',
  'resolveTxt',
  'fetch',
  'send',
]);

/** Globals that reach the network, however they are referenced (`const send = fetch`). */
const NETWORK_GLOBALS: ReadonlySet<string> = new Set([
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'EventSource',
]);

const NETWORK_CLASSES: ReadonlySet<string> = new Set([
  'WebSocket',
  'XMLHttpRequest',
  'EventSource',
  'Socket',
]);

/** Where the module talks to the network. Facts only: the combination rules decide. */
export const network: ScanRule<never> = {
  meta: {
    name: 'network',
    description: 'talks to the network',
    findings: {},
  },
  create(context) {
    const { facts } = context;
    return {
      ModuleReference({ name, remote, node }) {
        if (remote) return;
        const root = name.split('/')[0]!;
        if (NETWORK_MODULES.has(name) || NETWORK_MODULES.has(root))
          facts.network.push(lineOf(node));
      },
      Identifier(node) {
        if (NETWORK_GLOBALS.has(node.name)) facts.network.push(lineOf(node));
      },
      NewExpression(node) {
        const name = constructedName(node);
        if (name !== undefined && NETWORK_CLASSES.has(name)) facts.network.push(lineOf(node));
      },
      MemberExpression(node) {
        if (globalObjectOf(node, context.aliases) === undefined) return;
        const key = propertyName(node);
        if (key !== undefined && NETWORK_GLOBALS.has(key)) facts.network.push(lineOf(node));
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'fetch')
          facts.network.push(lineOf(node));
        const called = calledFunction(node, context.imports);
        if (
          called?.module !== undefined &&
          NETWORK_MODULES.has(called.module) &&
          NETWORK_CALLS.has(called.name)
        )
          facts.network.push(lineOf(node));
      },
    };
  },
};
