/**
 * The ES-module pass: parses with acorn (locations on) and records facts and direct findings
 * from the tree — blocked modules and constructs, obfuscation shapes, network, environment
 * and file calls, markers in string literals, instructions aimed at the model in tool
 * descriptions and JSDoc. Comments other than block comments are never read: they are inert.
 */
import { parse } from 'acorn';
import type {
  AnyNode,
  Comment,
  Expression,
  Literal,
  MemberExpression,
  Program,
  SpreadElement,
  Super,
} from 'acorn';
import { ancestor, simple } from 'acorn-walk';
import { blockedModuleOf } from '../blocked-modules.ts';
import { countEscapes, isEncodedBlob, isSecretName, type ModuleFacts } from './facts.ts';
import type { FindingSink } from './findings.ts';
import { hasInvisible, injectionPhrase, markersIn, secretRequest } from './markers.ts';

const NETWORK_MODULES = new Set([
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
const NETWORK_CALLS = new Set([
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
const READ_CALLS = new Set([
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
const WRITE_CALLS = new Set([
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
const CHMOD_CALLS = new Set(['chmod', 'chmodSync', 'fchmod', 'fchmodSync', 'lchmod']);
const GLOBAL_OBJECTS = new Set([
  'process',
  'globalThis',
  'global',
  'window',
  'self',
  'require',
  'module',
  'Reflect',
]);
const DANGEROUS_KEYS = new Set([
  'env',
  'mainModule',
  'binding',
  '_linkedBinding',
  'dlopen',
  'eval',
  'Function',
  'require',
  'constructor',
  'process',
  'child_process',
  'execSync',
  'exec',
  'spawn',
  'import',
  '__proto__',
]);
const WASM_LOADERS = new Set([
  'instantiate',
  'instantiateStreaming',
  'compile',
  'compileStreaming',
]);
const HOST_INFO_CALLS = new Set(['hostname', 'userInfo', 'networkInterfaces']);
/** Globals that reach the network, however they are referenced (`const send = fetch`). */
const NETWORK_GLOBALS = new Set(['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource']);
const SPLIT_NAME_TARGETS = new Set([
  ...DANGEROUS_KEYS,
  ...GLOBAL_OBJECTS,
  'globalThis',
  'child_process',
  'node:child_process',
  'fetch',
  'execSync',
  'spawnSync',
]);
/** Globals a skill has no business replacing (a hooked fetch swaps wallet addresses). */
const PLATFORM_APIS = new Set([
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'Request',
  'Response',
  'ethereum',
  'solana',
  'crypto',
  'JSON',
  'eval',
  'Function',
  'require',
  'process',
  'setTimeout',
  'setInterval',
  'console',
  'navigator',
  'Date',
]);
const BUILTIN_CLASSES = new Set([
  'XMLHttpRequest',
  'Response',
  'Request',
  'WebSocket',
  'Function',
  'Object',
  'Array',
  'String',
  'Promise',
  'JSON',
  'EventTarget',
]);
const DESCRIPTION_KEYS = [
  'description',
  'instructions',
  'prompt',
  'summary',
  'system',
  'help',
  'usage',
];

/** Parses `source`; null (with a finding) when it is not an ES module. */
export function parseModule(
  source: string,
  sink: FindingSink,
): { program: Program; comments: Comment[] } | null {
  const comments: Comment[] = [];
  try {
    const program = parse(source, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      locations: true,
      allowHashBang: true,
      onComment: comments,
    });
    return { program, comments };
  } catch (error) {
    const line = lineOfError(error);
    const deep =
      error instanceof RangeError ||
      (error instanceof Error && error.message.includes('stack space'));
    sink.add(
      deep ? 'scanner.too-deep' : 'scanner.unparseable',
      line,
      'high',
      deep
        ? 'nests too deeply to analyse'
        : `does not parse as an ES module: ${(error as Error).message}`,
    );
    return null;
  }
}

function lineOfError(error: unknown): number {
  const loc = (error as { loc?: { line?: number } }).loc;
  return typeof loc?.line === 'number' ? loc.line : 1;
}

export function scanModuleTree(
  program: Program,
  comments: Comment[],
  facts: ModuleFacts,
  sink: FindingSink,
): void {
  for (const comment of comments) {
    if (comment.type !== 'Block') continue;
    const phrase = injectionPhrase(comment.value);
    if (phrase)
      sink.add(
        'injection.comment',
        comment.loc?.start.line ?? 1,
        'high',
        `a block comment tells the model: "${phrase}"`,
      );
  }

  const bound = new Map<string, string>(); // local name → module it was imported from
  let usesFromCharCode = false;
  const numberArrays: number[] = [];

  const line = (node: { loc?: { start: { line: number } } | null }): number =>
    node.loc?.start.line ?? 1;

  const moduleSource = (specifier: string, at: AnyNode, dynamic: boolean): void => {
    const name = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
    const lower = name.toLowerCase();
    if (
      lower.startsWith('http:') ||
      lower.startsWith('https:') ||
      lower.startsWith('data:') ||
      lower.startsWith('blob:')
    ) {
      sink.add(
        'download.remote-import',
        line(at),
        'critical',
        `imports code from ${specifier.slice(0, 60)}`,
      );
      facts.runsCode.push(line(at));
      facts.network.push(line(at));
      return;
    }
    const root = name.split('/')[0]!;
    if (blockedModuleOf(specifier)) {
      sink.add(
        'blocked.module',
        line(at),
        'critical',
        `${dynamic ? 'import(' : 'import '}'${specifier}'${dynamic ? ')' : ''} is blocked`,
      );
      facts.runsCode.push(line(at));
    }
    if (NETWORK_MODULES.has(name) || NETWORK_MODULES.has(root)) facts.network.push(line(at));
  };

  const stringSeen = (value: string, at: AnyNode, ancestors: AnyNode[]): void => {
    for (const hit of markersIn(value)) facts.markers.push({ ...hit, line: line(at) });
    const phrase = injectionPhrase(value);
    const invisible = hasInvisible(value);
    const describes =
      phrase !== undefined || invisible || value.length >= 40
        ? isDescriptionLike(ancestors)
        : false;
    if (invisible && describes) {
      sink.add(
        'injection.hidden-text',
        line(at),
        'high',
        'a description holds invisible characters',
      );
    }
    const request = describes && phrase === undefined ? secretRequest(value) : undefined;
    if (request) {
      sink.add(
        'injection.secret-request',
        line(at),
        'high',
        `a description asks the model for secrets: "${request}"`,
      );
    }
    if (phrase) {
      if (describes) {
        sink.add(
          'injection.tool-description',
          line(at),
          'high',
          `a description tells the model: "${phrase}"`,
        );
      } else {
        sink.add('injection.string', line(at), 'medium', `a string tells the model: "${phrase}"`);
      }
    }
    if (isEncodedBlob(value)) facts.blob.push(line(at));
  };

  // `const p = process; p.env` — aliases of the globals, collected before the main walk so a
  // use above the declaration is resolved too.
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

  ancestor(program, {
    ImportDeclaration(node) {
      if (typeof node.source.value === 'string') {
        moduleSource(node.source.value, node, false);
        for (const spec of node.specifiers)
          bound.set(spec.local.name, node.source.value.replace(/^node:/, ''));
      }
    },
    ExportNamedDeclaration(node) {
      if (node.source && typeof node.source.value === 'string')
        moduleSource(node.source.value, node, false);
    },
    ExportAllDeclaration(node) {
      if (typeof node.source.value === 'string') moduleSource(node.source.value, node, false);
    },
    ImportExpression(node) {
      const src = node.source;
      if (src.type === 'Literal' && typeof src.value === 'string') {
        moduleSource(src.value, node, true);
      } else {
        sink.add(
          'blocked.dynamic-import',
          line(node),
          'critical',
          'import(<expression>) loads code chosen at run time',
        );
        facts.runsCode.push(line(node));
      }
    },
    Literal(node, _state, ancestors) {
      if (typeof node.value !== 'string') return;
      if (isPropertyKey(node, ancestors)) return;
      stringSeen(node.value, node, ancestors);
      if (node.raw && countEscapes(node.raw) >= 8) {
        sink.add(
          'obfuscation.escaped-string',
          line(node),
          'high',
          'a string literal spelled in \\x/\\u escapes',
        );
        facts.spelledOut.push(line(node));
      }
    },
    TemplateLiteral(node, _state, ancestors) {
      const text = node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' X ');
      stringSeen(text, node, ancestors);
    },
    BinaryExpression(node, _state, ancestors) {
      const parent = ancestors[ancestors.length - 2];
      if (node.operator !== '+' || (parent?.type === 'BinaryExpression' && parent.operator === '+'))
        return;
      const folded = foldConcat(node);
      if (folded !== undefined) stringSeen(folded, node, ancestors);
    },
    VariableDeclarator(node) {
      // `const { env } = process` takes the whole environment without writing `process.env`.
      if (
        node.init?.type !== 'Identifier' ||
        (aliases.get(node.init.name) ?? node.init.name) !== 'process' ||
        node.id.type !== 'ObjectPattern'
      )
        return;
      for (const p of node.id.properties) {
        const key =
          p.type === 'Property'
            ? p.key.type === 'Identifier'
              ? p.key.name
              : p.key.type === 'Literal'
                ? String(p.key.value)
                : undefined
            : undefined;
        if (key === 'env') facts.envWhole.push(line(node));
        if (key === 'mainModule' || key === 'binding' || key === 'dlopen') {
          sink.add(
            'blocked.require',
            line(node),
            'critical',
            `takes process.${key} out of process`,
          );
          facts.runsCode.push(line(node));
        }
      }
    },
    ArrayExpression(node) {
      let numbers = 0;
      for (const el of node.elements)
        if (el?.type === 'Literal' && typeof el.value === 'number') numbers++;
      if (numbers >= 16) numberArrays.push(line(node));
    },
    Identifier(node, _state, ancestors) {
      if (NETWORK_GLOBALS.has(node.name)) facts.network.push(line(node));
      if (node.name === 'eval') {
        const parent = ancestors[ancestors.length - 2];
        if (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed)
          return;
        if (parent?.type === 'Property' && parent.key === node && !parent.computed) return;
        sink.add('blocked.eval', line(node), 'critical', 'eval runs a string as code');
        facts.runsCode.push(line(node));
      }
    },
    NewExpression(node) {
      const callee = node.callee;
      const name =
        callee.type === 'Identifier'
          ? callee.name
          : callee.type === 'MemberExpression'
            ? propertyName(callee)
            : undefined;
      if (name === 'Function' || name === 'AsyncFunction') {
        sink.add(
          'blocked.function-constructor',
          line(node),
          'critical',
          'new Function builds code from a string',
        );
        facts.runsCode.push(line(node));
      } else if (name === 'Worker' || name === 'Script') {
        sink.add(
          'blocked.worker',
          line(node),
          'critical',
          `new ${name} runs code outside the module`,
        );
        facts.runsCode.push(line(node));
      } else if (
        name === 'WebSocket' ||
        name === 'XMLHttpRequest' ||
        name === 'EventSource' ||
        name === 'Socket'
      ) {
        facts.network.push(line(node));
      }
    },
    MemberExpression(node, _state, ancestors) {
      memberSeen(node, ancestors);
      if (
        node.computed &&
        (node.property.type === 'BinaryExpression' || node.property.type === 'TemplateLiteral')
      ) {
        const key =
          node.property.type === 'BinaryExpression'
            ? foldConcat(node.property, true)
            : templateText(node.property);
        if (key !== undefined && SPLIT_NAME_TARGETS.has(key)) {
          sink.add(
            'obfuscation.split-name',
            line(node),
            'high',
            `[…] builds the name "${key}" out of pieces`,
          );
        }
      }
    },
    AssignmentExpression(node) {
      const left = node.left;
      if (left.type !== 'MemberExpression') return;
      const key = propertyName(left);
      if (key === undefined) return;
      const target = left.object;
      const onGlobal =
        target.type === 'Identifier' &&
        ['globalThis', 'window', 'global', 'self'].includes(target.name) &&
        PLATFORM_APIS.has(key);
      const onPrototype =
        target.type === 'MemberExpression' &&
        propertyName(target) === 'prototype' &&
        target.object.type === 'Identifier' &&
        BUILTIN_CLASSES.has(target.object.name);
      if (onGlobal || onPrototype) {
        sink.add(
          'tamper.global-override',
          line(node),
          'high',
          `replaces the platform's ${onPrototype ? 'prototype method' : 'global'} ${key}`,
        );
      }
    },
    CallExpression(node, _state, ancestors) {
      const callee = node.callee;
      const at = line(node);
      if (callee.type === 'Identifier') {
        const name = callee.name;
        const from = bound.get(name);
        if (name === 'require' || name === 'createRequire') {
          sink.add(
            'blocked.require',
            at,
            'critical',
            `${name}() loads CommonJS modules around the import checks`,
          );
          facts.runsCode.push(at);
          const arg = node.arguments[0];
          if (arg?.type === 'Literal' && typeof arg.value === 'string')
            moduleSource(arg.value, node, true);
        } else if (name === 'Function') {
          sink.add(
            'blocked.function-constructor',
            at,
            'critical',
            'Function() builds code from a string',
          );
          facts.runsCode.push(at);
        } else if (
          (name === 'setTimeout' || name === 'setInterval') &&
          isStringish(node.arguments[0])
        ) {
          sink.add('blocked.eval', at, 'critical', `${name} with a string runs it as code`);
          facts.runsCode.push(at);
        } else if (name === 'fetch') {
          facts.network.push(at);
        } else if (name === 'atob' && isLongLiteral(node.arguments[0])) {
          facts.decodesBlob.push(at);
        }
        if (from !== undefined) classifyCall(name, from, at);
        return;
      }
      if (callee.type !== 'MemberExpression') return;
      const prop = propertyName(callee);
      const objectName = callee.object.type === 'Identifier' ? callee.object.name : undefined;
      if (objectName === 'String' && prop === 'fromCharCode') {
        usesFromCharCode = true;
        if (countNumbers(node.arguments) >= 8) {
          sink.add(
            'obfuscation.charcode-chain',
            at,
            'high',
            'String.fromCharCode spells a string out of numbers',
          );
          facts.spelledOut.push(at);
        }
      }
      if (
        (prop === 'apply' || prop === 'call') &&
        callee.object.type === 'MemberExpression' &&
        propertyName(callee.object) === 'fromCharCode'
      ) {
        usesFromCharCode = true;
        if (countNumbers(node.arguments) >= 8) {
          sink.add(
            'obfuscation.charcode-chain',
            at,
            'high',
            'String.fromCharCode spells a string out of numbers',
          );
          facts.spelledOut.push(at);
        }
      }
      if (objectName === 'Buffer' && prop === 'from' && isLongLiteral(node.arguments[0])) {
        const enc = node.arguments[1];
        if (
          enc?.type === 'Literal' &&
          typeof enc.value === 'string' &&
          ['base64', 'base64url', 'hex'].includes(enc.value)
        ) {
          facts.decodesBlob.push(at);
        }
      }
      if (prop === 'constructor' && node.arguments.length > 0) {
        sink.add(
          'blocked.function-constructor',
          at,
          'critical',
          '.constructor(…) reaches the Function constructor',
        );
        facts.runsCode.push(at);
      }
      if (objectName === 'WebAssembly' && prop !== undefined && WASM_LOADERS.has(prop)) {
        facts.runsCode.push(at);
      }
      if (
        objectName === 'process' &&
        (prop === 'binding' || prop === '_linkedBinding' || prop === 'dlopen')
      ) {
        sink.add('blocked.process-binding', at, 'critical', `process.${prop} reaches native code`);
        facts.runsCode.push(at);
      }
      if (
        prop === 'then' &&
        node.arguments.some(
          (a) => a.type === 'Identifier' && (a.name === 'eval' || a.name === 'Function'),
        )
      ) {
        sink.add(
          'download.fetch-and-eval',
          at,
          'critical',
          'a promise result is handed to eval/Function',
        );
        facts.runsCode.push(at);
      }
      if (prop === 'join' && callee.object.type === 'ArrayExpression') {
        // ['.', 's', 's', 'h'].join('') spells a path without a literal holding it.
        const folded = joinLiterals(callee.object.elements, node.arguments[0]);
        if (folded !== undefined) stringSeen(folded, node, ancestors);
      }
      if (prop === 'pipe') {
        const target = node.arguments[0];
        const fromStdout =
          callee.object.type === 'MemberExpression' &&
          ['stdout', 'stderr'].includes(propertyName(callee.object) ?? '');
        const intoStdin = target?.type === 'MemberExpression' && propertyName(target) === 'stdin';
        if (fromStdout || intoStdin) facts.pipesStdio.push(at);
      }
      if (prop !== undefined) {
        const from = objectName !== undefined ? (bound.get(objectName) ?? objectName) : undefined;
        classifyCall(prop, from, at);
      }
    },
  });

  if (usesFromCharCode) {
    for (const at of numberArrays) {
      sink.add(
        'obfuscation.charcode-chain',
        at,
        'high',
        'an array of character codes turned into a string',
      );
      facts.spelledOut.push(at);
    }
  }

  function classifyCall(name: string, from: string | undefined, at: number): void {
    const root = from?.replace(/^node:/, '').split('/')[0];
    if (READ_CALLS.has(name)) facts.fileRead.push(at);
    if (WRITE_CALLS.has(name)) facts.fileWrite.push(at);
    if (CHMOD_CALLS.has(name)) facts.chmod.push(at);
    if (root !== undefined && NETWORK_MODULES.has(root) && NETWORK_CALLS.has(name))
      facts.network.push(at);
    if (root === 'child_process' || root === 'vm') facts.runsCode.push(at);
    if (root === 'os' && HOST_INFO_CALLS.has(name)) facts.hostInfo.push(at);
  }

  function memberSeen(node: MemberExpression, ancestors: AnyNode[]): void {
    const object = node.object;
    const objectName =
      object.type === 'Identifier'
        ? (aliases.get(object.name) ?? object.name)
        : object.type === 'MemberExpression' && propertyName(object) === 'process'
          ? 'process'
          : undefined;
    if (objectName === undefined || !GLOBAL_OBJECTS.has(objectName)) return;
    const at = line(node);
    const key = propertyName(node);
    if (key !== undefined && NETWORK_GLOBALS.has(key)) facts.network.push(at);
    if (node.computed && (key === undefined || DANGEROUS_KEYS.has(key))) {
      sink.add(
        'obfuscation.computed-global',
        at,
        'high',
        `${objectName}[…] hides which property it reaches`,
      );
    }
    if (objectName === 'Reflect' && key === 'get') {
      sink.add(
        'obfuscation.computed-global',
        at,
        'high',
        'Reflect.get hides which property it reaches',
      );
    }
    if (objectName === 'process' && key === 'env') envSeen(node, ancestors, at);
    if (objectName === 'process' && key === 'mainModule') {
      sink.add('blocked.require', at, 'critical', 'process.mainModule reaches require');
      facts.runsCode.push(at);
    }
  }

  function envSeen(node: MemberExpression, ancestors: AnyNode[], at: number): void {
    const parent = ancestors[ancestors.length - 2];
    if (parent?.type === 'MemberExpression' && parent.object === node) {
      const name = propertyName(parent);
      if (name === undefined) facts.envWhole.push(at);
      else if (isSecretName(name)) facts.envSecret.push(at);
      return;
    }
    if (
      parent?.type === 'VariableDeclarator' &&
      parent.init === node &&
      parent.id.type === 'ObjectPattern'
    ) {
      for (const p of parent.id.properties) {
        if (p.type === 'RestElement') facts.envWhole.push(at);
        else if (p.key.type === 'Identifier' && isSecretName(p.key.name)) facts.envSecret.push(at);
        else if (
          p.key.type === 'Literal' &&
          typeof p.key.value === 'string' &&
          isSecretName(p.key.value)
        )
          facts.envSecret.push(at);
      }
      return;
    }
    facts.envWhole.push(at);
  }
}

function propertyName(node: MemberExpression): string | undefined {
  const p = node.property;
  if (!node.computed && p.type === 'Identifier') return p.name;
  if (p.type === 'Literal' && typeof p.value === 'string') return p.value;
  if (p.type === 'TemplateLiteral' && p.expressions.length === 0)
    return p.quasis[0]?.value.cooked ?? undefined;
  return undefined;
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

function templateText(node: AnyNode): string | undefined {
  return node.type === 'TemplateLiteral' && node.expressions.length === 0
    ? (node.quasis[0]?.value.cooked ?? undefined)
    : undefined;
}

function isPropertyKey(node: Literal, ancestors: AnyNode[]): boolean {
  const parent = ancestors[ancestors.length - 2];
  return parent?.type === 'Property' && parent.key === node && !parent.computed;
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

function isStringish(node: Expression | SpreadElement | undefined): boolean {
  return (
    (node?.type === 'Literal' && typeof node.value === 'string') ||
    node?.type === 'TemplateLiteral' ||
    node?.type === 'BinaryExpression'
  );
}

function isLongLiteral(node: Expression | SpreadElement | undefined): boolean {
  return node?.type === 'Literal' && typeof node.value === 'string' && node.value.length >= 40;
}

/** Numeric literals among call arguments, counting into a spread or an array argument. */
function countNumbers(args: Array<Expression | SpreadElement>): number {
  let count = 0;
  for (const arg of args) {
    const inner = arg.type === 'SpreadElement' ? arg.argument : arg;
    if (inner.type === 'Literal' && typeof inner.value === 'number') count++;
    else if (inner.type === 'ArrayExpression') {
      for (const el of inner.elements)
        if (el?.type === 'Literal' && typeof el.value === 'number') count++;
    }
  }
  return count;
}

/** The string a `'a' + 'b' + …` chain of literals spells, or undefined when a part is not one. */
function foldConcat(node: Expression | Super | AnyNode, literalOnly = false): string | undefined {
  const parts: string[] = [];
  const stack: AnyNode[] = [node];
  let pieces = 0;
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (++pieces > 10_000) return undefined;
    if (n.type === 'BinaryExpression' && n.operator === '+') {
      stack.push(n.right, n.left);
    } else if (
      n.type === 'Literal' &&
      (typeof n.value === 'string' || typeof n.value === 'number')
    ) {
      parts.push(String(n.value));
    } else if (n.type === 'TemplateLiteral' && (!literalOnly || n.expressions.length === 0)) {
      parts.push(n.quasis.map((q) => q.value.cooked ?? '').join(' X '));
    } else if (literalOnly) {
      return undefined;
    } else {
      parts.push(' X ');
    }
  }
  return parts.length > 1 ? parts.join('') : undefined;
}
