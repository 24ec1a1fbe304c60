/**
 * Hostile input for the two memory routes the spec leaves to the CLI: GET /memory/semantic and
 * DELETE /memory. Every bad request gets 422 (or 401 without the key) with a `detail` that says
 * what is wrong, and nothing is deleted by a request that was refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

const KEY = 'hostile-memory-routes-key';

describe('GET /memory/semantic and DELETE /memory against hostile requests', () => {
  let bed: ChatTestBed;
  const send = async (method: string, path: string, init: RequestInit = {}) => {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
      method,
      ...init,
      headers: { 'x-api-key': KEY, ...(init.headers ?? {}) },
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    };
  };
  const count = async () => {
    const { body } = await send('GET', '/memory/entries?limit=1000');
    return body.count;
  };

  beforeAll(async () => {
    bed = await startChatTestBed(undefined, { config: { gateway: { api_key: KEY } } });
    for (const content of ['the cellar key hangs by the door', 'the boiler is serviced in May']) {
      const { status } = await send('POST', '/memory', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content, session_id: 'hostile', importance: 0.5 }),
      });
      expect(status).toBe(200);
    }
  }, 60_000);
  afterAll(() => bed.close());

  it.each([
    ['no q', '/memory/semantic', /q/],
    ['an empty q', '/memory/semantic?q=', /q/],
    ['a q of spaces', `/memory/semantic?q=${encodeURIComponent('   \t ')}`, /q/],
    ['q given twice', '/memory/semantic?q=cellar&q=boiler', /q/],
    ['a q longer than 2,000 characters', `/memory/semantic?q=${'a'.repeat(2_001)}`, /2,?000/],
    ['a limit of 0', '/memory/semantic?q=cellar&limit=0', /limit/],
    ['a negative limit', '/memory/semantic?q=cellar&limit=-5', /limit/],
    ['a limit that is not a number', '/memory/semantic?q=cellar&limit=ten', /limit/],
    ['a limit over 1000', '/memory/semantic?q=cellar&limit=100000', /limit/],
    ['a fractional limit', '/memory/semantic?q=cellar&limit=2.5', /limit/],
    [
      'a traversing session_id',
      `/memory/semantic?q=cellar&session_id=${encodeURIComponent('../etc/passwd')}`,
      /session_id/,
    ],
    [
      'a session_id with a NUL',
      `/memory/semantic?q=cellar&session_id=${encodeURIComponent('a\u0000b')}`,
      /session_id/,
    ],
    [
      'an over-long session_id',
      `/memory/semantic?q=cellar&session_id=${'s'.repeat(201)}`,
      /session_id/,
    ],
  ])('GET /memory/semantic with %s is 422 naming the field', async (_name, path, field) => {
    const { status, body } = await send('GET', path);
    expect(status).toBe(422);
    expect(body.detail).toEqual(expect.any(String));
    expect(String(body.detail)).toMatch(field);
  });

  it('finds by meaning for a q with quotes, percent signs and SQL-looking text, and a q of exactly 2,000 characters', async () => {
    for (const q of [`cellar' OR 1=1; --`, '100% "cellar" %_', `${'cellar '.repeat(285)}cella`]) {
      expect(q.length).toBeLessThanOrEqual(2_000);
      const { status, body } = await send('GET', `/memory/semantic?q=${encodeURIComponent(q)}`);
      expect(status).toBe(200);
      expect(body.query).toBe(q.trim());
      expect(Array.isArray(body.results)).toBe(true);
    }
  });

  it.each([
    ['no confirm', '/memory'],
    ['an empty confirm', '/memory?confirm='],
    ['confirm=ALL (the word is exact)', '/memory?confirm=ALL'],
    ['confirm=yes', '/memory?confirm=yes'],
    ['confirm=all twice', '/memory?confirm=all&confirm=all'],
    ['confirm=all with trailing space', `/memory?confirm=${encodeURIComponent('all ')}`],
  ])('DELETE /memory with %s is 422 and deletes nothing', async (_name, path) => {
    const before = await count();
    const { status, body } = await send('DELETE', path);
    expect(status).toBe(422);
    expect(String(body.detail)).toMatch(/confirm/);
    expect(await count()).toBe(before);
    expect(before).toBe(2);
  });

  it('without the key both routes are 401 and nothing is deleted', async () => {
    for (const [method, path] of [
      ['GET', '/memory/semantic?q=cellar'],
      ['DELETE', '/memory?confirm=all'],
    ] as const) {
      const res = await fetch(`${bed.gw.url}/api/v1${path}`, { method });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { detail: string }).detail).toEqual(expect.any(String));
    }
    expect(await count()).toBe(2);
  });
});
