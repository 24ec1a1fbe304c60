/** What the schema thread is asked and answers (schema-checker.ts ↔ schema-thread.ts). */

/** A JSON Schema, as tools and MCP servers give them. */
export type JsonSchema = Record<string, unknown>;

export interface SchemaThreadRequest {
  id: number;
  /** `prepare`: compile only (a tool being registered); `validate`: check `data` too. */
  op: 'prepare' | 'validate';
  /** The schema's identity: the thread keeps its compiled form under this key. */
  key: number;
  schema: JsonSchema;
  /**
   * The data as JSON text (for `validate`): a string crosses to the thread as one copy, several
   * times faster than the structured clone of the objects, which runs on the event loop.
   */
  json?: string;
}

/**
 * - `valid`: the data fits (or, for `prepare`, the schema compiled);
 * - `invalid`: the data does not fit, `message` says where (ajv's text);
 * - `unchecked`: ajv cannot compile the schema for a reason that is no danger (an unresolved
 *   `$ref`, …): the data is not checked and the tool checks its own arguments;
 * - `refused`: the schema cannot be checked safely (a pattern no linear-time engine runs), or
 *   the check took too long or failed: nothing may rely on the data having been checked.
 */
export type SchemaVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; message: string }
  | { kind: 'unchecked'; message: string }
  | { kind: 'refused'; message: string };

export interface SchemaThreadReply {
  id: number;
  verdict: SchemaVerdict;
}

/** The thread's first message: its modules are loaded, deadlines may start. */
export interface SchemaThreadReady {
  ready: true;
}
