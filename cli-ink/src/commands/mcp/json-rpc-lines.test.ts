import { describe, expect, it } from 'vitest';
import { jsonRpcLines, type LineError } from './json-rpc-lines.ts';

/** Feeds `chunks` through the filter; what passed and what was refused. */
async function run(chunks: string[], maxLineBytes?: number) {
  const refused: LineError[] = [];
  const filter = jsonRpcLines((response) => refused.push(response), maxLineBytes);
  const passed: string[] = [];
  filter.on('data', (chunk: Buffer) => passed.push(chunk.toString('utf8')));
  const done = new Promise((resolve) => filter.on('end', resolve));
  for (const chunk of chunks) filter.write(chunk);
  filter.end();
  await done;
  return { passed: passed.join(''), refused };
}

const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

describe('the JSON-RPC line filter in front of hearth mcp', () => {
  it('passes valid messages, whole, even when split across chunks', async () => {
    const { passed, refused } = await run([
      PING.slice(0, 10),
      `${PING.slice(10)}\n`,
      `${PING}\r\n`,
    ]);
    expect(passed).toBe(`${PING}\n${PING}\n`);
    expect(refused).toEqual([]);
  });

  it('answers a line that is not JSON with -32700', async () => {
    const { passed, refused } = await run(['not json\n']);
    expect(passed).toBe('');
    expect(refused).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the line is not JSON' },
      },
    ]);
  });

  it('answers JSON that is no JSON-RPC message with -32600, keeping a usable id', async () => {
    const { refused } = await run(['{"id":4,"method":"ping"}\n', '"text"\n', 'null\n']);
    expect(refused.map((r) => [r.id, r.error.code])).toEqual([
      [4, -32600],
      [null, -32600],
      [null, -32600],
    ]);
  });

  it('drops an oversized line as it streams, answers -32600, and reads on', async () => {
    const { passed, refused } = await run(['x'.repeat(50), 'y'.repeat(60), `z\n${PING}\n`], 100);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.error.message).toContain('over 100 bytes');
    expect(passed).toBe(`${PING}\n`);
  });

  it('ignores blank lines', async () => {
    expect(await run(['\n\r\n  \n'])).toEqual({ passed: '', refused: [] });
  });
});
