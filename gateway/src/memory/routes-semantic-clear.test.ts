/**
 * The two memory routes the spec leaves to the CLI, served because only the running gateway
 * holds its tiers: GET /memory/semantic (retrieval by meaning alone) and DELETE /memory
 * (everything, from every tier). Real gateways: one with the deterministic hash embedder, one
 * with the production embedder and no model on disk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmbed } from './embedder/hash-embedder.ts';
import type { MemoryEntry, SemanticMatch } from './ports.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { featureOffReason } from '../models/optional-packages.ts';

type Method = 'GET' | 'POST' | 'DELETE';

async function call<T = Record<string, unknown>>(
  base: string,
  method: Method,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** The chat bed's embedder: 64-dimensional hashed bags of words. */
const similarity = (a: string, b: string): number => {
  const x = hashEmbed(a, 64);
  const y = hashEmbed(b, 64);
  return x.reduce((sum, value, i) => sum + value * (y[i] ?? 0), 0);
};

describe('GET /memory/semantic and DELETE /memory on a gateway with an embedder', () => {
  let bed: ChatTestBed;
  const url = () => bed.gw.url;
  const store = async (content: string, session_id: string, importance = 0.5) => {
    const { status, body } = await call<MemoryEntry>(url(), 'POST', '/memory', {
      content,
      session_id,
      importance,
    });
    expect(status).toBe(200);
    return body;
  };

  beforeAll(async () => void (bed = await startChatTestBed()), 60_000);
  afterAll(() => bed.close());

  it('finds rows by meaning that the substring search does not, ranked as retrieval ranks them', async () => {
    const rows = [
      await store('Ada drinks green tea every morning', 'ada', 0.8),
      await store('Bob repairs old bicycles in the shed', 'bob'),
      await store('Carol also drinks green tea', 'carol', 0.2),
    ];
    const q = 'green tea in the morning';
    expect((await call(url(), 'GET', `/memory/search?q=${encodeURIComponent(q)}`)).body).toEqual({
      query: q,
      results: [],
      count: 0,
    });
    const expected = rows
      .map((row) => {
        const s = similarity(q, row.content);
        return { ...row, similarity: s, score: s * (0.75 + 0.25 * row.importance_score) };
      })
      .filter((row) => row.similarity >= 0.1)
      .sort((a, b) => b.score - a.score);
    expect(expected.map((row) => row.session_id)).toContain('ada');
    const { status, body } = await call<{ results: SemanticMatch[]; count: number }>(
      url(),
      'GET',
      `/memory/semantic?q=${encodeURIComponent(q)}`,
    );
    expect(status).toBe(200);
    expect(body.count).toBe(expected.length);
    expect(body.results.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    for (const [i, result] of body.results.entries()) {
      expect(result.similarity).toBeCloseTo(expected[i]!.similarity, 5);
      expect(result.score).toBeCloseTo(expected[i]!.score, 5);
    }

    const oneSession = await call<{ results: SemanticMatch[] }>(
      url(),
      'GET',
      `/memory/semantic?q=${encodeURIComponent(q)}&session_id=carol&limit=5`,
    );
    expect(oneSession.body.results.map((r) => r.session_id)).toEqual(['carol']);
  });

  it.each([
    ['no q', '/memory/semantic', 'query.q: is required'],
    ['a blank q', '/memory/semantic?q=%20%20', 'query.q: must not be empty'],
    [
      'limit 1001',
      '/memory/semantic?q=tea&limit=1001',
      'query.limit: Too big: expected number to be <=1000',
    ],
    [
      'a traversing session id',
      '/memory/semantic?q=tea&session_id=../x',
      expect.stringMatching(/^query\.session_id: /),
    ],
  ])('GET /memory/semantic with %s → 422', async (_case, path, detail) => {
    expect(await call(url(), 'GET', path)).toEqual({ status: 422, body: { detail } });
  });

  it('DELETE /memory wants confirm=all, and then empties the long-term rows, their vectors and short-term', async () => {
    for (const path of ['/memory', '/memory?confirm=yes', '/memory?confirm=ALL'])
      expect(await call(url(), 'DELETE', path)).toEqual({
        status: 422,
        body: { detail: 'query.confirm: must be "all" to delete every memory' },
      });
    expect((await call<{ count: number }>(url(), 'GET', '/memory/entries')).body.count).toBe(3);

    // A chat turn: two short-term items (and no long-term row: small talk is unimportant).
    bed.fake.reply({ text: 'Hello!' });
    expect((await call(url(), 'POST', '/chat', { message: 'hi', session_id: 'wipe' })).status).toBe(
      200,
    );
    await store('Dora keeps bees on the roof', 'dora');

    expect(await call(url(), 'DELETE', '/memory?confirm=all')).toEqual({
      status: 200,
      body: { deleted: 6, long_term: 4, short_term: 2 },
    });
    expect((await call(url(), 'GET', '/memory/entries?limit=1000')).body).toEqual({
      entries: [],
      count: 0,
    });
    expect(
      (await call(url(), 'GET', `/memory/semantic?q=${encodeURIComponent('bees on the roof')}`))
        .body,
    ).toEqual({ query: 'bees on the roof', results: [], count: 0 });
    expect(await call(url(), 'DELETE', '/memory?confirm=all')).toEqual({
      status: 200,
      body: { deleted: 0, long_term: 0, short_term: 0 },
    });
  });
});

describe('GET /memory/semantic without an embedding model', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
  }, 60_000);
  afterAll(() => gw.close());

  it('answers 503 naming the missing model and the command that fetches it', async () => {
    const { status, body } = await call<{ detail: string }>(
      gw.url,
      'GET',
      '/memory/semantic?q=tea',
    );
    expect(status).toBe(503);
    if (featureOffReason('embeddings') === null) {
      expect(body.detail).toMatch(
        /^semantic search needs the local embedding model, which is not available: embedding model Xenova\/all-MiniLM-L6-v2 not found: .*run `hearth memory models pull` to fetch it$/,
      );
    } else {
      // Without the optional feature the reason is the feature, and the command that adds it.
      expect(body.detail).toMatch(
        /^semantic search needs the local embedding model, which is not available: the optional feature "embeddings" is not installed \(.+ missing\); turn it on with `hearth features add embeddings`$/,
      );
    }
  });
});
