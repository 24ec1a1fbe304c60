/**
 * The skill runtime: the program the isolated child Node process runs (never the gateway).
 * Started as `node --permission … runtime.mjs <skill file>`, it loads the skill module, lists
 * its tools, and answers one JSON-RPC request per line on stdin with one response per line on
 * stdout:
 *   {"id":1,"method":"tools"}                              → {"id":1,"result":[ToolSpec…]}
 *   {"id":2,"method":"call","params":{"tool":"t","args":{}}} → {"id":2,"result":"text"}
 *   failures                                               → {"id":n,"error":{"message":"…"}}
 * A load failure is reported once as {"id":0,"error":…} and the process exits.
 * While a call runs, the skill may ask the gateway to run one of its gated tools (the
 * capabilities it declared, through `hearth:skill`'s shell()/browser()):
 *   child → {"request":1,"method":"shell","params":{"command":"ls"}}
 *   gateway → {"reply":1,"result":"text"} or {"reply":1,"error":{"message":"…"}}
 * The skill has no network of its own (no wall gives it one): `fetch` (the global one, replaced
 * before the skill loads, and `hearth:skill`'s) asks the gateway to make the request:
 *   child → {"request":2,"method":"fetch","params":{"url":"https://…","method":"GET",
 *            "headers":[["accept","…"]],"body":"<base64>","redirect":"follow"}}
 *   gateway → {"reply":2,"result":"{\"status\":200,\"headers\":[…],\"body\":\"<base64>\",…}"}
 * and the gateway alone decides (declared hosts, https, public addresses) and records it.
 * Nothing this process writes is taken as a record of what it did.
 *
 * Plain JavaScript shipped as a file (the build copies it to dist/), because the child runs it
 * under the permission model with reads limited to this folder and the skill's.
 */
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { _connectHost, fetch as gatewayFetch, Plugin } from './skill-api.mjs';

/** The specifier a skill imports Hearth's API by; nothing else resolves to this folder. */
const SKILL_API_SPECIFIER = 'hearth:skill';
const SKILL_API_URL = new URL('./skill-api.mjs', import.meta.url).href;

const skillFile = process.argv[2];

// The protocol owns stdout: the skill's console output goes to stderr (the host keeps a tail).
const writeStdout = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);
/* eslint-disable no-console -- the skill's console output is redirected, not written here */
console.log = console.error;
console.info = console.error;
console.debug = console.error;
/* eslint-enable no-console */

/*
 * What the permission model leaves open and a skill must not have: signals to other processes
 * (the gateway's pid is process.ppid without bubblewrap; SIGUSR1 through _debugProcess would
 * open its inspector), identity changes, and the priority of other processes. Replaced before
 * the skill loads, and not replaceable afterwards.
 */
function denied(name) {
  // A plain function, so `new WebSocket()` throws this too.
  return function deniedInSkill() {
    throw Object.assign(new Error(`${name} is not allowed in a skill`), {
      code: 'ERR_ACCESS_DENIED',
    });
  };
}
for (const name of [
  'kill',
  '_kill',
  '_debugProcess',
  '_debugEnd',
  'setuid',
  'setgid',
  'seteuid',
  'setegid',
  'setgroups',
  'initgroups',
  'dlopen',
  'binding',
  '_linkedBinding',
]) {
  Object.defineProperty(process, name, {
    value: denied(`process.${name}`),
    writable: false,
    configurable: false,
  });
}
Object.defineProperty(os, 'setPriority', {
  value: denied('os.setPriority'),
  writable: false,
  configurable: false,
});

/*
 * No network from here: bubblewrap (and the sidecar's container) give the host none, and where
 * only the permission model stands (Node 24 has no network permission) the modules and globals
 * that open sockets are taken away before the skill loads, by any route (import, require,
 * process.getBuiltinModule). A skill's `fetch` asks the gateway.
 */
const NETWORK_MODULES = new Set([
  'net',
  'dgram',
  'tls',
  'http',
  'https',
  'http2',
  'dns',
  'dns/promises',
  '_http_agent',
  '_http_client',
  '_http_common',
  '_http_incoming',
  '_http_outgoing',
  '_http_server',
  '_tls_common',
  '_tls_wrap',
]);
const isNetworkModule = (specifier) =>
  typeof specifier === 'string' && NETWORK_MODULES.has(specifier.replace(/^node:/, ''));
function noNetwork(name) {
  return Object.assign(
    new Error(
      `${name} is not available in a skill: it has no network (its fetch asks the gateway)`,
    ),
    { code: 'ERR_ACCESS_DENIED' },
  );
}
const getBuiltinModule = process.getBuiltinModule.bind(process);
Object.defineProperty(process, 'getBuiltinModule', {
  value: (id) => {
    if (isNetworkModule(id)) throw noNetwork(id);
    return getBuiltinModule(id);
  },
  writable: false,
  configurable: false,
});
for (const name of ['WebSocket', 'EventSource']) {
  Object.defineProperty(globalThis, name, {
    value: denied(name),
    writable: false,
    configurable: false,
  });
}

function send(message) {
  writeStdout(`${JSON.stringify(message)}\n`);
}

// `import … from 'hearth:skill'` loads skill-api.mjs (the module this runtime connected).
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === SKILL_API_SPECIFIER) return { url: SKILL_API_URL, shortCircuit: true };
    if (isNetworkModule(specifier)) throw noNetwork(specifier);
    return nextResolve(specifier, context);
  },
});

/** Requests to the gateway's gated tools, by id, waiting for their replies. */
const hostRequests = new Map();
let nextHostRequest = 1;
_connectHost(
  (method, params) =>
    new Promise((resolve, reject) => {
      const request = nextHostRequest++;
      hostRequests.set(request, { resolve, reject });
      send({ request, method, params });
    }),
);

function settleHostRequest(message) {
  const waiting = hostRequests.get(message.reply);
  if (!waiting) return;
  hostRequests.delete(message.reply);
  if (message.error) waiting.reject(new Error(String(message.error.message)));
  else waiting.resolve(typeof message.result === 'string' ? message.result : '');
}

// The skill's fetch is the gateway's: there is no network here to make requests on.
Object.defineProperty(globalThis, 'fetch', {
  value: gatewayFetch,
  writable: true,
  configurable: true,
  enumerable: true,
});

/** `/** … *\/` comments right before `export [async] function name` or `export const name =`. */
function readDocComments(source) {
  const docs = new Map();
  const pattern =
    /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export\s+(?:async\s+)?(?:function\s*\*?\s*([A-Za-z_$][\w$]*)|(?:const|let|var)\s+([A-Za-z_$][\w$]*))/g;
  for (const match of source.matchAll(pattern)) {
    docs.set(match[2] ?? match[3], parseDocComment(match[1]));
  }
  return docs;
}

const JSON_TYPES = {
  string: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  object: { type: 'object' },
  array: { type: 'array' },
};

function schemaOfType(text) {
  const type = text.trim().replace(/=$/, '').toLowerCase();
  if (type.endsWith('[]')) return { type: 'array', items: schemaOfType(type.slice(0, -2)) };
  const generic = /^array<(.+)>$/.exec(type);
  if (generic) return { type: 'array', items: schemaOfType(generic[1]) };
  return JSON_TYPES[type] ?? {};
}

function parseDocComment(body) {
  const lines = body.split('\n').map((line) => line.replace(/^\s*\*?\s?/, '').trimEnd());
  const description = [];
  const properties = {};
  const required = [];
  let inTags = false;
  for (const line of lines) {
    if (line.startsWith('@')) inTags = true;
    const param =
      /^@param\s+(?:\{([^}]*)\}\s*)?(\[?)([A-Za-z_$][\w$.]*)(?:=[^\]]*)?\]?\s*(?:-\s*)?(.*)$/.exec(
        line,
      );
    if (param) {
      const [, type = '', optional, name, text] = param;
      if (name.includes('.')) continue;
      properties[name] = { ...schemaOfType(type), ...(text ? { description: text } : {}) };
      if (!optional && !type.trim().endsWith('=')) required.push(name);
    } else if (!inTags && line.trim()) {
      description.push(line.trim());
    }
  }
  return {
    description: description.join(' '),
    parameters: { type: 'object', properties, required },
  };
}

/** The `/** … *\/` comment right before the method `name(` of a plugin class, if any. */
function readMethodDoc(source, name) {
  const escaped = name.replaceAll('$', '\\$');
  const pattern = new RegExp(
    `\\/\\*\\*((?:(?!\\*\\/)[\\s\\S])*)\\*\\/\\s*(?:async\\s+)?(?:\\*\\s*)?${escaped}\\s*\\(`,
  );
  const match = pattern.exec(source);
  return match ? parseDocComment(match[1]) : undefined;
}

/**
 * A default-exported class extending Hearth's `Plugin` (or a class named Plugin, the
 * validator's reading of the same source).
 */
function pluginBase(candidate) {
  if (typeof candidate !== 'function' || !candidate.prototype) return undefined;
  for (let base = Object.getPrototypeOf(candidate); base; base = Object.getPrototypeOf(base)) {
    if (base === Plugin || base.name === 'Plugin') return base;
    if (base === Function.prototype) return undefined;
  }
  return undefined;
}

/**
 * A plugin's tools: one instance of the class, and its public methods (own and inherited up to
 * the Plugin base; not `constructor`, not `_name`, not accessors), bound to that instance.
 */
function pluginTools(module, source) {
  const Class = module.default;
  const base = pluginBase(Class);
  if (!base) return [];
  const instance = new Class();
  const schema = Class.schema && typeof Class.schema === 'object' ? Class.schema : {};
  const methods = [];
  const seen = new Set();
  for (let proto = Class.prototype; proto && proto !== base.prototype;) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name.startsWith('_') || seen.has(name)) continue;
      seen.add(name);
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (typeof descriptor?.value !== 'function') continue;
      methods.push(name);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return methods.map((name) =>
    describeTool(name, instance[name].bind(instance), readMethodDoc(source, name), schema),
  );
}

/** A tool's spec from its JSDoc and the declared schema (which wins). */
function describeTool(name, fn, doc, schema) {
  const read = doc ?? { description: '', parameters: { type: 'object', properties: {} } };
  const declared = schema[name];
  let parameters = read.parameters;
  let description = read.description;
  if (declared && typeof declared === 'object') {
    if (declared.parameters && typeof declared.parameters === 'object') {
      parameters = declared.parameters;
      if (typeof declared.description === 'string') description = declared.description;
    } else {
      parameters = declared;
    }
  }
  // JSDoc parameters are positional; a declared schema describes one arguments object
  // unless the function takes several parameters.
  const positional = declared ? fn.length > 1 : Object.keys(parameters.properties ?? {}).length > 0;
  return { name, description: description || name, parameters, positional, fn };
}

/** The tools of a module: its exported functions not starting with `_`, then a plugin's methods. */
function toolSpecs(module, source) {
  const docs = readDocComments(source);
  const schema = module.schema && typeof module.schema === 'object' ? module.schema : {};
  const specs = [];
  // A module namespace lists its names alphabetically: tools keep the source's order instead.
  const position = (name) => {
    const at = source.search(
      new RegExp(
        `export\\s+(?:async\\s+)?(?:function\\s*\\*?\\s*|(?:const|let|var)\\s+)${name.replaceAll('$', '\\$')}\\b`,
      ),
    );
    return at === -1 ? Number.MAX_SAFE_INTEGER : at;
  };
  const exported = Object.entries(module).sort(([a], [b]) => position(a) - position(b));
  for (const [name, value] of exported) {
    if (typeof value !== 'function' || name.startsWith('_') || name === 'default') continue;
    specs.push(describeTool(name, value, docs.get(name), schema));
  }
  for (const spec of pluginTools(module, source)) {
    if (specs.some((known) => known.name === spec.name))
      throw new Error(`two tools are named ${spec.name}`);
    specs.push(spec);
  }
  return specs;
}

function describe(error) {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

function toText(value) {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

let module;
let specs;
try {
  const source = readFileSync(skillFile, 'utf8');
  module = await import(pathToFileURL(skillFile).href);
  specs = toolSpecs(module, source);
} catch (error) {
  send({ id: 0, error: { message: `the skill did not load: ${describe(error)}` } });
  process.exit(1);
}
const tools = new Map(specs.map((spec) => [spec.name, spec]));

async function answer(request) {
  if (request.method === 'tools') {
    return specs.map(({ name, description, parameters }) => ({ name, description, parameters }));
  }
  if (request.method === 'call') {
    const { tool, args } = request.params ?? {};
    const spec = typeof tool === 'string' ? tools.get(tool) : undefined;
    if (!spec) throw new Error(`no such tool: ${String(tool)}`);
    // Named parameters map onto positional ones in JSDoc order; a single `args` object too.
    const input = args && typeof args === 'object' ? args : {};
    const names = Object.keys(spec.parameters.properties ?? {});
    return toText(await spec.fn(...(spec.positional ? names.map((name) => input[name]) : [input])));
  }
  throw new Error(`unknown method: ${String(request.method)}`);
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    send({ id: null, error: { message: 'malformed request' } });
    return;
  }
  if (request && typeof request === 'object' && 'reply' in request) {
    settleHostRequest(request);
    return;
  }
  answer(request).then(
    (result) => send({ id: request.id, result }),
    (error) => send({ id: request.id, error: { message: describe(error) } }),
  );
});
lines.on('close', () => process.exit(0));
