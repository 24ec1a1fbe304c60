/**
 * Beyond the spec: a session's stored messages (GET /sessions/{id}/messages), its title
 * (PATCH /sessions/{id}, shown in GET /sessions) and the search of GET /sessions?q=, through
 * the real gateway.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

type Listed = { id: string; title: string | null; message_count: number };
type Messages = {
  session_id: string;
  summary: string | null;
  messages: { role: string; text: string; created_at: string }[];
  has_more: boolean;
};

let home: string;
let bed: ChatTestBed;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-sessions-'));
  bed = await startChatTestBed(undefined, { home });
});
afterAll(() => bed.close());

const patch = async (target: ChatTestBed, path: string, body: unknown) => {
  const res = await fetch(`${target.gw.url}/api/v1${path}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

async function chat(target: ChatTestBed, sessionId: string, message: string, reply: string) {
  target.fake.reply({ text: reply });
  const res = await target.post('/chat', { message, session_id: sessionId });
  expect(res.status).toBe(200);
}

const listed = async (target: ChatTestBed, query = ''): Promise<Listed[]> =>
  (await target.get(`/sessions${query}`)).body.sessions as Listed[];

describe('GET /sessions/{id}/messages', () => {
  beforeAll(async () => {
    await chat(bed, 'hist', 'My boat is called Wren', 'Noted: Wren.');
    await chat(bed, 'hist', 'And my dog is Pip', 'Noted: Pip.');
  });

  it('returns the stored conversation oldest first, with roles, text and times', async () => {
    const res = await bed.get('/sessions/hist/messages');
    expect(res.status).toBe(200);
    const body = res.body as unknown as Messages;
    expect(body.session_id).toBe('hist');
    expect(body.summary).toBeNull();
    expect(body.has_more).toBe(false);
    expect(body.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'My boat is called Wren'],
      ['assistant', 'Noted: Wren.'],
      ['user', 'And my dog is Pip'],
      ['assistant', 'Noted: Pip.'],
    ]);
    for (const m of body.messages)
      expect(Math.abs(Date.parse(m.created_at) - Date.now())).toBeLessThan(60_000);
  });

  it('pages from the newest: limit, offset, has_more', async () => {
    const newest = (await bed.get('/sessions/hist/messages?limit=1')).body as unknown as Messages;
    expect(newest.messages.map((m) => m.text)).toEqual(['Noted: Pip.']);
    expect(newest.has_more).toBe(true);
    const middle = (await bed.get('/sessions/hist/messages?limit=2&offset=1'))
      .body as unknown as Messages;
    expect(middle.messages.map((m) => m.text)).toEqual(['Noted: Wren.', 'And my dog is Pip']);
    expect(middle.has_more).toBe(true);
    const oldest = (await bed.get('/sessions/hist/messages?limit=10&offset=3'))
      .body as unknown as Messages;
    expect(oldest.messages.map((m) => m.text)).toEqual(['My boat is called Wren']);
    expect(oldest.has_more).toBe(false);
    const beyond = (await bed.get('/sessions/hist/messages?offset=50')).body as unknown as Messages;
    expect(beyond.messages).toEqual([]);
  });

  it('404s an unknown session; 422s bad ids and out-of-bounds paging', async () => {
    const unknown = await bed.get('/sessions/nobody-here/messages');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/No session nobody-here/);
    expect((await bed.get('/sessions/..%2F..%2Fetc%2Fpasswd/messages')).status).toBe(422);
    expect((await bed.get(`/sessions/${'x'.repeat(201)}/messages`)).status).toBe(422);
    for (const query of ['limit=0', 'limit=201', 'offset=-1', 'offset=10001', 'limit=abc']) {
      const res = await bed.get(`/sessions/hist/messages?${query}`);
      expect(res.status, query).toBe(422);
      expect(typeof res.body.detail).not.toBe('undefined');
    }
  });
});

describe('session titles', () => {
  it('defaults to the first line of the first message, shortened', async () => {
    await chat(bed, 'untitled', `Plan a trip to Lisbon\nin May, for two`, 'Sure.');
    const long = 'word '.repeat(30);
    await chat(bed, 'untitled-long', long, 'Ok.');
    const sessions = await listed(bed);
    expect(sessions.find((s) => s.id === 'untitled')?.title).toBe('Plan a trip to Lisbon');
    const shortened = sessions.find((s) => s.id === 'untitled-long')?.title ?? '';
    expect(shortened.length).toBe(60);
    expect(shortened.endsWith('…')).toBe(true);
  });

  it('PATCH renames a session; GET /sessions shows it; it survives a restart', async () => {
    await chat(bed, 'rename-me', 'What should I cook tonight?', 'Soup.');
    const res = await patch(bed, '/sessions/rename-me', { title: '  Dinner ideas  ' });
    expect(res).toEqual({ status: 200, body: { id: 'rename-me', title: 'Dinner ideas' } });
    expect((await listed(bed)).find((s) => s.id === 'rename-me')?.title).toBe('Dinner ideas');

    // The gateway alone: the bed's close would delete the state directory.
    await bed.gw.gateway.close();
    await bed.fake.close();
    bed = await startChatTestBed(undefined, { home });
    // Not live after the restart: its stored messages are still readable…
    const after = await bed.get('/sessions/rename-me/messages');
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    const stored = after.body as unknown as Messages;
    expect(stored.messages.map((m) => m.text)).toEqual(['What should I cook tonight?', 'Soup.']);
    // …and once it is live again it has its title.
    await chat(bed, 'rename-me', 'And dessert?', 'Pie.');
    expect((await listed(bed)).find((s) => s.id === 'rename-me')?.title).toBe('Dinner ideas');
  });

  it('refuses over-long, empty, control-character, extra-field and malformed bodies (422)', async () => {
    await chat(bed, 'strict-title', 'hello', 'hi');
    const cases: unknown[] = [
      { title: 'x'.repeat(201) },
      { title: '   ' },
      { title: 'bad\u0000title' },
      { title: 'line\nbreak' },
      { title: 42 },
      {},
      { title: 'ok', extra: true },
      'not json',
    ];
    for (const body of cases) {
      const res = await patch(bed, '/sessions/strict-title', body);
      expect([400, 422], JSON.stringify(body)).toContain(res.status);
      expect(res.body.detail).toBeDefined();
    }
    expect((await patch(bed, '/sessions/strict-title', { title: 'x'.repeat(200) })).status).toBe(
      200,
    );
  });

  it('404s an unknown session and 422s a traversing or oversized id', async () => {
    expect((await patch(bed, '/sessions/never-seen', { title: 'x' })).status).toBe(404);
    expect((await patch(bed, '/sessions/..%2Fsecrets', { title: 'x' })).status).toBe(422);
    expect((await patch(bed, `/sessions/${'a'.repeat(201)}`, { title: 'x' })).status).toBe(422);
    // Nothing was stored for the refused ids.
    expect((await bed.get('/sessions/never-seen/messages')).status).toBe(404);
  });

  it('DELETE /sessions/{id} removes the title with the history', async () => {
    await chat(bed, 'forget-title', 'first words', 'ok');
    await patch(bed, '/sessions/forget-title', { title: 'Secret project' });
    const res = await fetch(`${bed.gw.url}/api/v1/sessions/forget-title`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    await chat(bed, 'forget-title', 'fresh start', 'ok');
    expect((await listed(bed)).find((s) => s.id === 'forget-title')?.title).toBe('fresh start');
  });
});

describe('GET /sessions?q=', () => {
  beforeAll(async () => {
    await chat(bed, 'search-garden', 'How deep should I plant tulip bulbs?', 'About 20 cm.');
    await chat(bed, 'search-car', 'When is my car due for service?', 'In March.');
    await patch(bed, '/sessions/search-car', { title: 'Vehicle upkeep' });
  });

  it('keeps sessions whose title or messages contain q, case-insensitively', async () => {
    expect((await listed(bed, '?q=TULIP')).map((s) => s.id)).toEqual(['search-garden']);
    expect((await listed(bed, '?q=20%20cm')).map((s) => s.id)).toEqual(['search-garden']);
    expect((await listed(bed, '?q=upkeep')).map((s) => s.id)).toEqual(['search-car']);
    const none = await bed.get('/sessions?q=zebra-crossing-xyz');
    expect(none.body).toEqual({ sessions: [], total: 0 });
    // An empty q filters nothing.
    expect((await listed(bed, '?q=')).length).toBeGreaterThan(2);
  });

  it('treats q as text, not a pattern', async () => {
    expect(await listed(bed, '?q=.*')).toEqual([]);
    expect(await listed(bed, `?q=${encodeURIComponent("%' or 1=1 --")}`)).toEqual([]);
  });

  it('422s a q over 200 characters or with control characters', async () => {
    const long = await bed.get(`/sessions?q=${'a'.repeat(201)}`);
    expect(long.status).toBe(422);
    expect(String(long.body.detail)).toMatch(/200/);
    expect((await bed.get('/sessions?q=a%00b')).status).toBe(422);
    expect((await bed.get(`/sessions?q=${'a'.repeat(200)}`)).status).toBe(200);
  });
});
