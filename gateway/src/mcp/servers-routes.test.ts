/**
 * `/mcp/servers`: add, list, enable, disable and remove external MCP servers; every change is
 * written to config.toml (atomic, comments kept) before it takes effect. Hostile input is
 * refused with a 422 naming the problem, and nothing is written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/load.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import {
  connected,
  FAST_TIMING,
  send,
  serverStatus,
  stdioEntry,
  toolNames,
  until,
} from './testing/mcp-test-bed.ts';

const COMMENT = '# my own notes, kept across writes';

describe('/mcp/servers', { timeout: 120_000 }, () => {
  let bed: ChatTestBed;
  let configPath: string;

  const fileServers = async () =>
    parseConfig(await readFile(configPath, 'utf8'), configPath).mcp.servers;

  beforeAll(async () => {
    bed = await startChatTestBed(undefined, { mcpTiming: FAST_TIMING });
    configPath = join(bed.gw.home, 'config.toml');
    await writeFile(configPath, `${COMMENT}\n[gateway]\nport = 0\n`);
  }, 180_000);

  afterAll(async () => {
    await bed.close();
  });

  it('lists no servers at first', async () => {
    expect((await send(bed, 'GET', '/mcp/servers')).body).toEqual({ servers: [] });
  });

  it('adds a stdio server: saved to config.toml (mcp.servers), connected, tools registered', async () => {
    const entry = stdioEntry('added', { env: { MODE: 'test' } });
    const res = await send(bed, 'POST', '/mcp/servers', entry);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'added', transport: 'stdio', enabled: true });
    const text = await readFile(configPath, 'utf8');
    expect(text).toContain(COMMENT);
    expect(text).toMatch(/^\[mcp\]$/m);
    expect(await fileServers()).toEqual([entry]);
    await connected(bed, 'added');
    expect(await toolNames(bed)).toContain('added__echo');
  });

  it('refuses a second server of the same name (409), and writes nothing', async () => {
    const before = await readFile(configPath, 'utf8');
    const res = await send(bed, 'POST', '/mcp/servers', stdioEntry('added'));
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/already exists/);
    expect(await readFile(configPath, 'utf8')).toBe(before);
  });

  it('disables a server: its tools leave, the file says enabled = false; enabling brings them back', async () => {
    const off = await send(bed, 'PATCH', '/mcp/servers/added', { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, state: 'disabled', tool_count: 0 });
    expect(await toolNames(bed)).not.toContain('added__echo');
    expect((await fileServers())[0]?.enabled).toBe(false);
    const on = await send(bed, 'PATCH', '/mcp/servers/added', { enabled: true });
    expect(on.body.enabled).toBe(true);
    await connected(bed, 'added');
    expect((await fileServers())[0]?.enabled).toBe(true);
  });

  it('removes a server: gone from the registry, the list and the file', async () => {
    expect((await send(bed, 'DELETE', '/mcp/servers/added')).body).toEqual({
      removed: true,
      name: 'added',
    });
    expect(await toolNames(bed)).not.toContain('added__echo');
    expect(await fileServers()).toEqual([]);
    expect((await readFile(configPath, 'utf8')).includes(COMMENT)).toBe(true);
    expect((await send(bed, 'GET', '/mcp/servers/added')).status).toBe(404);
    expect((await send(bed, 'DELETE', '/mcp/servers/added')).status).toBe(404);
    expect((await send(bed, 'PATCH', '/mcp/servers/added', { enabled: true })).status).toBe(404);
  });

  it('reports a server whose command cannot start, and keeps retrying with backoff', async () => {
    await send(bed, 'POST', '/mcp/servers', {
      name: 'missing',
      command: '/nonexistent/mcp-server',
    });
    const status = await until(
      'missing reported',
      () => serverStatus(bed, 'missing'),
      (s) => s.last_error !== null && s.restarts > 0,
    );
    expect(status.state).toBe('restarting');
    expect(status.last_error).toMatch(/ENOENT|could not connect|closed/);
    await send(bed, 'DELETE', '/mcp/servers/missing');
  });

  describe('hostile input is refused with 422 and nothing is written', () => {
    const bad: [string, unknown][] = [
      ['no transport', { name: 'x' }],
      ['both transports', { name: 'x', command: 'a', url: 'http://127.0.0.1:1/mcp' }],
      ['a name with a path', { name: '../etc', command: 'a' }],
      ['a name with __', { name: 'a__b', command: 'a' }],
      ['a name too long', { name: 'a'.repeat(33), command: 'a' }],
      ['a file: URL', { name: 'x', url: 'file:///etc/passwd' }],
      ['a NUL in the command', { name: 'x', command: 'a\u0000b' }],
      ['a newline in an argument', { name: 'x', command: 'a', args: ['ok', 'b\nc'] }],
      ['an env name with =', { name: 'x', command: 'a', env: { 'A=B': 'c' } }],
      ['args of the wrong type', { name: 'x', command: 'a', args: 'not-a-list' }],
      ['an unknown field', { name: 'x', command: 'a', shell: true }],
      ['an oversized argument', { name: 'x', command: 'a', args: ['y'.repeat(5_000)] }],
    ];
    for (const [what, body] of bad) {
      it(what, async () => {
        const before = await readFile(configPath, 'utf8');
        const res = await send(bed, 'POST', '/mcp/servers', body);
        expect(res.status).toBe(422);
        expect(typeof res.body.detail).toBe('string');
        expect(await readFile(configPath, 'utf8')).toBe(before);
      });
    }

    it('malformed JSON gets the gateway’s 422 with a detail', async () => {
      const res = await fetch(`${bed.gw.url}/api/v1/mcp/servers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": "x",',
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ detail: 'Malformed JSON in request body' });
    });

    it('PATCH wants a boolean', async () => {
      await send(bed, 'POST', '/mcp/servers', stdioEntry('patchme', { enabled: false }));
      const res = await send(bed, 'PATCH', '/mcp/servers/patchme', { enabled: 'yes' });
      expect(res.status).toBe(422);
      await send(bed, 'DELETE', '/mcp/servers/patchme');
    });
  });

  describe('the tool-call route', () => {
    it('answers 404 for an unknown tool and 422 for a malformed name or arguments', async () => {
      expect((await send(bed, 'POST', '/mcp/tools/nope/call', {})).status).toBe(404);
      expect((await send(bed, 'POST', '/mcp/tools/..%2Fstatus/call', {})).status).toBe(422);
      const wrong = await send(bed, 'POST', '/mcp/tools/current_time/call', {
        arguments: { timezone: 5 },
      });
      expect(wrong.status).toBe(422);
      expect(wrong.body.detail).toMatch(/timezone/);
      const client = await send(bed, 'POST', '/mcp/tools/current_time/call', {
        client: 'bad name\n',
      });
      expect(client.status).toBe(422);
    });

    it('runs a tool as session mcp:<client>', async () => {
      const res = await send(bed, 'POST', '/mcp/tools/current_time/call', {
        arguments: {},
        client: 'my-editor',
      });
      expect(res.body.is_error).toBe(false);
      expect(String(res.body.content)).toContain('ISO');
    });
  });
});
