/**
 * Beyond the spec: GET /sessions?stored=true lists the conversations only stored (idle past
 * the live timeout, or from before a restart) with the live ones, through the real gateway
 * restarted on the same state directory.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

type Listed = { id: string; title: string | null; message_count: number; last_active: string };
type Page = { sessions: Listed[]; total: number };

let home: string;
let bed: ChatTestBed;

async function chat(sessionId: string, message: string, reply: string) {
  bed.fake.reply({ text: reply });
  const res = await bed.post('/chat', { message, session_id: sessionId });
  expect(res.status).toBe(200);
}

const page = async (query: string): Promise<Page> => {
  const res = await bed.get(`/sessions?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as Page;
};

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-stored-sessions-'));
  bed = await startChatTestBed(undefined, { home });
  await chat('old-trip', 'Plan a trip to Lisbon\nin May', 'Sure.');
  await chat('old-trip', 'What about 50%_off fares?', 'Maybe.');
  await chat('old-named', 'Which paint for the shed?', 'Linseed.');
  const renamed = await fetch(`${bed.gw.url}/api/v1/sessions/old-named`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Shed work' }),
  });
  expect(renamed.status).toBe(200);
  // The gateway alone: the bed's close would delete the state directory.
  await bed.gw.gateway.close();
  await bed.fake.close();
  bed = await startChatTestBed(undefined, { home });
  await chat('fresh', 'Hello again', 'Hi.');
});
afterAll(() => bed.close());

describe('GET /sessions?stored=true', () => {
  it('after a restart lists the stored conversations with their titles, newest first', async () => {
    // The spec'd list: live sessions only.
    expect((await page('')).sessions.map((s) => s.id)).toEqual(['fresh']);
    const listed = await page('stored=true');
    expect(listed.total).toBe(3);
    expect(listed.sessions.map((s) => [s.id, s.title, s.message_count])).toEqual([
      ['fresh', 'Hello again', 1],
      ['old-named', 'Shed work', 1],
      ['old-trip', 'Plan a trip to Lisbon', 2],
    ]);
    for (const s of listed.sessions) expect(Date.parse(s.last_active)).toBeGreaterThan(0);
    const second = await page('stored=true&limit=1&offset=1');
    expect(second).toEqual({ total: 3, sessions: [listed.sessions[1]] });
    expect(await page('stored=true&offset=3')).toEqual({ total: 3, sessions: [] });
  });

  it('q matches a stored message or title, case-insensitively', async () => {
    const ids = async (q: string) =>
      (await page(`stored=true&q=${encodeURIComponent(q)}`)).sessions.map((s) => s.id);
    expect(await ids('LISBON')).toEqual(['old-trip']);
    expect(await ids('linseed')).toEqual(['old-named']);
    expect(await ids('shed WORK')).toEqual(['old-named']);
    expect(await ids('hello')).toEqual(['fresh']);
    // Without stored=true only live sessions are searched.
    expect((await page('q=lisbon')).sessions).toEqual([]);
  });

  it('hostile q: wildcards are literal; over-long or control characters are refused (422)', async () => {
    const ids = async (q: string) =>
      (await page(`stored=true&q=${encodeURIComponent(q)}`)).sessions.map((s) => s.id);
    expect(await ids('%')).toEqual(['old-trip']);
    expect(await ids('_')).toEqual(['old-trip']);
    expect(await ids('50%_off')).toEqual(['old-trip']);
    expect(await ids('Lis%on')).toEqual([]);
    expect(await ids('Lisb_n')).toEqual([]);
    expect(await ids('\\')).toEqual([]);
    expect(await ids("'; drop table conversation_messages;--")).toEqual([]);
    for (const query of [
      `q=${'x'.repeat(201)}`,
      'q=a%00b',
      'q=line%0Abreak',
      'stored=yes',
      'limit=0&stored=true',
    ]) {
      const res = await bed.get(`/sessions?stored=true&${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.detail, query).toBeDefined();
    }
    expect((await page(`stored=true&q=${'x'.repeat(200)}`)).sessions).toEqual([]);
    // Nothing was harmed.
    expect((await page('stored=true')).total).toBe(3);
  });
});
