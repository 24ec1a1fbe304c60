/**
 * What the hostile MCP servers of the tests offer and answer, shared by the stdio one (a child
 * process speaking raw JSON-RPC lines) and the HTTP one (a child process speaking raw Streamable
 * HTTP): no SDK in between, so they can send what no well-behaved server would.
 *
 * Behaviours, chosen by name:
 * - `redos`: `match` (a `pattern` of `^(a|a)+$`), `unique` (an array with `uniqueItems`),
 *   `unique_out` (an `outputSchema` with `uniqueItems`, answered with 20,000 objects) and
 *   `lookaround` (a pattern only a backtracking engine runs) and `explode` (a schema whose
 *   `$ref`s make any validator check 2^40 subschemas for one string);
 * - `many:<n>`: n tools `t0`…;
 * - `bloat`: tools over each cap (a 197 kB description, a 197 kB parameter description, a 100 kB
 *   schema, a 200-level schema), and `ok`;
 * - `flood`: `flood` (and over HTTP `flood_sse`, `flood_declared`) answers 400 MB, made as it
 *   is sent.
 */

/** A 400 MB answer, in 1 MiB pieces. */
export const FLOOD_BYTES = 400 * 1024 * 1024;
export const FLOOD_PIECE = 1024 * 1024;
/** Objects in `unique_out`'s answer. */
export const UNIQUE_OUT_ITEMS = 20_000;

type Json = Record<string, unknown>;

const stringParam = (extra: Json = {}): Json => ({
  type: 'object',
  properties: { text: { type: 'string', ...extra } },
  required: ['text'],
});

function deepSchema(levels: number): Json {
  let schema: Json = { type: 'string' };
  for (let i = 0; i < levels; i += 1) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

/** Each definition refers to the next twice: 2^depth checks of `text`, from a 2 kB schema. */
function explodingSchema(depth: number): Json {
  const defs: Json = { [`d${depth}`]: { type: 'string' } };
  for (let i = 0; i < depth; i += 1)
    defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  return { type: 'object', $defs: defs, properties: { text: { $ref: '#/$defs/d0' } } };
}

export function toolsFor(behaviours: readonly string[]): Json[] {
  const tools: Json[] = [];
  for (const behaviour of behaviours) {
    if (behaviour === 'redos') {
      tools.push(
        {
          name: 'match',
          description: 'Matches a run of a',
          inputSchema: stringParam({ pattern: '^(a|a)+$' }),
        },
        {
          name: 'unique',
          description: 'Takes distinct items',
          inputSchema: {
            type: 'object',
            properties: { items: { type: 'array', uniqueItems: true } },
          },
        },
        {
          name: 'unique_out',
          description: 'Returns distinct items',
          inputSchema: { type: 'object' },
          outputSchema: {
            type: 'object',
            properties: { items: { type: 'array', uniqueItems: true } },
            required: ['items'],
          },
        },
        {
          name: 'lookaround',
          description: 'Needs lookaround',
          inputSchema: stringParam({ pattern: '^(?!admin).*$' }),
        },
        { name: 'explode', description: 'Takes a text', inputSchema: explodingSchema(40) },
      );
    } else if (behaviour.startsWith('many:')) {
      const count = Number(behaviour.slice('many:'.length));
      for (let i = 0; i < count; i += 1)
        tools.push({
          name: `t${i}`,
          description: `Tool number ${i}`,
          inputSchema: { type: 'object' },
        });
    } else if (behaviour === 'bloat') {
      const huge = 'Reads the weather. '.repeat(10_400);
      tools.push(
        { name: 'long_description', description: huge, inputSchema: { type: 'object' } },
        {
          name: 'long_parameter',
          description: 'Fine',
          inputSchema: stringParam({ description: huge }),
        },
        {
          name: 'big_schema',
          description: 'A big enum',
          inputSchema: stringParam({
            enum: Array.from({ length: 10_000 }, (_, i) => `value-${i}`),
          }),
        },
        { name: 'deep_schema', description: 'Deep', inputSchema: deepSchema(200) },
        { name: 'ok', description: 'An ordinary tool', inputSchema: stringParam() },
      );
    } else if (behaviour === 'flood') {
      // Over HTTP: a JSON answer, one SSE event, and a JSON answer that says its size first.
      for (const name of ['flood', 'flood_sse', 'flood_declared'])
        tools.push({ name, description: 'Answers 400 MB', inputSchema: { type: 'object' } });
    }
  }
  return tools;
}

/** A small answer of a tool call (everything but `flood`). */
export function resultOf(name: string, args: Json): Json {
  if (name === 'unique_out') {
    const items = Array.from({ length: UNIQUE_OUT_ITEMS }, (_, i) => ({ id: i }));
    return {
      content: [{ type: 'text', text: `${items.length} items` }],
      structuredContent: { items },
    };
  }
  const items = Array.isArray(args.items) ? args.items.length : 0;
  return { content: [{ type: 'text', text: `${name} ran (${items} items)` }] };
}

/** The start and end of a JSON-RPC answer whose text is made of 'x' in between. */
export function floodFrame(id: unknown): { head: string; tail: string } {
  const open = JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text: '' }] },
  });
  const cut = open.indexOf('""') + 1;
  return { head: open.slice(0, cut), tail: open.slice(cut) };
}

/** The answer to `initialize`: the client's protocol version, tools only. */
export function initializeResult(params: Json | undefined): Json {
  return {
    protocolVersion:
      typeof params?.protocolVersion === 'string' ? params.protocolVersion : '2025-06-18',
    capabilities: { tools: {} },
    serverInfo: { name: 'hostile', version: '1.0.0' },
  };
}
