/**
 * The worker thread's side of `schema-checker.ts`: compiles tool schemas with ajv 8 and checks
 * data against them, never on the gateway's event loop. Every `pattern` runs on RE2 (linear
 * time) and `uniqueItems` hashes canonical JSON (linear time), so neither of the two known ways a
 * schema makes ajv take exponential or quadratic time exists here; anything else slow is cut by
 * the checker's deadline. Runs only inside a worker.
 */
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { linearRegExp, UnsafePatternError } from './linear-pattern.ts';
import { firstDuplicate } from './unique-items.ts';
import type {
  JsonSchema,
  SchemaThreadReady,
  SchemaThreadReply,
  SchemaThreadRequest,
  SchemaVerdict,
} from './verdict.ts';

/** What is used here of an ajv 8 instance and the validators it compiles. */
interface ValidateFunction {
  (data: unknown): boolean;
  errors?: object[] | null;
}
interface Ajv {
  compile(schema: object): ValidateFunction;
  removeSchema(schema: object): unknown;
  removeKeyword(keyword: string): unknown;
  addKeyword(definition: object): unknown;
  errorsText(errors?: object[] | null): string;
}

/** Compiled schemas kept; the oldest is forgotten past this. */
const MAX_COMPILED = 512;

// ajv 8 and ajv-formats as the MCP SDK depends on them (the SDK's validator, configured here).
const sdkRequire = createRequire(import.meta.resolve('@modelcontextprotocol/sdk/validation/ajv'));
const AjvClass = (sdkRequire('ajv') as { default: new (options: object) => Ajv }).default;
const addFormats = (sdkRequire('ajv-formats') as { default: (ajv: Ajv) => Ajv }).default;

function createAjv(): Ajv {
  const ajv = new AjvClass({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    // A schema's `$id` is not registered: two tools may use the same one.
    addUsedSchema: false,
    code: { regExp: linearRegExp },
  });
  addFormats(ajv);
  ajv.removeKeyword('uniqueItems');
  const uniqueItems = (schema: unknown, data: unknown[]): boolean => {
    if (schema !== true) return true;
    const repeat = firstDuplicate(data);
    if (repeat === null) return true;
    uniqueItems.errors = [
      {
        keyword: 'uniqueItems',
        message: `must NOT have duplicate items (items ## ${repeat[0]} and ${repeat[1]} are identical)`,
        params: { i: repeat[1], j: repeat[0] },
      },
    ];
    return false;
  };
  uniqueItems.errors = [] as object[];
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: uniqueItems,
  });
  return ajv;
}

const ajv = createAjv();

interface Compiled {
  schema: JsonSchema;
  compiled: ValidateFunction | SchemaVerdict;
}
const cache = new Map<number, Compiled>();

const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);

function compile(key: number, schema: JsonSchema): ValidateFunction | SchemaVerdict {
  const known = cache.get(key);
  if (known) return known.compiled;
  let compiled: ValidateFunction | SchemaVerdict;
  try {
    compiled = ajv.compile(schema);
  } catch (error) {
    compiled =
      error instanceof UnsafePatternError
        ? { kind: 'refused', message: `its schema cannot be checked safely: ${error.message}` }
        : { kind: 'unchecked', message: `ajv cannot compile its schema: ${messageOf(error)}` };
    // ajv keeps what it compiled (or began to) by the schema object: forgotten with our entry.
    ajv.removeSchema(schema);
  }
  cache.set(key, { schema, compiled });
  if (cache.size > MAX_COMPILED) {
    const [oldestKey, oldest] = cache.entries().next().value!;
    cache.delete(oldestKey);
    ajv.removeSchema(oldest.schema);
  }
  return compiled;
}

function answer(request: SchemaThreadRequest): SchemaVerdict {
  const compiled = compile(request.key, request.schema);
  if (typeof compiled !== 'function') return compiled;
  if (request.op === 'prepare') return { kind: 'valid' };
  try {
    if (compiled(JSON.parse(request.json ?? 'null'))) return { kind: 'valid' };
  } catch (error) {
    return { kind: 'refused', message: `the check failed: ${messageOf(error)}` };
  }
  return { kind: 'invalid', message: ajv.errorsText(compiled.errors).slice(0, 2_000) };
}

parentPort?.on('message', (request: SchemaThreadRequest) => {
  const reply: SchemaThreadReply = { id: request.id, verdict: answer(request) };
  parentPort?.postMessage(reply);
});
const ready: SchemaThreadReady = { ready: true };
parentPort?.postMessage(ready);
