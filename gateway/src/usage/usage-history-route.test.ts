/**
 * `GET /api/v1/usage/history` over the real gateway: chat turns through the fake LLM are in the
 * current hour and day, they are still there after a restart on the same state directory (while
 * `GET /usage` starts again from nothing), and hostile query strings get 422 with a detail.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

interface History {
  bucket: string;
  days: number;
  from: number;
  to: number;
  points: { start: number; provider: string; model: string; requests: number }[];
  totals: { input_tokens: number; output_tokens: number; requests: number };
}

describe('GET /usage/history', () => {
  const beds: ChatTestBed[] = [];
  afterAll(async () => {
    const home = beds[0]?.gw.home;
    for (const bed of beds.reverse()) {
      await bed.gw.gateway.close();
      await bed.fake.close();
    }
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('counts turns per hour and day and keeps them across a restart', async () => {
    const first = await startChatTestBed();
    beds.push(first);
    for (const n of [1, 2]) {
      first.fake.reply({ text: `Turn ${n}.`, usage: { inputTokens: 40, outputTokens: 4 } });
      const turn = await first.post('/chat', { message: `turn ${n}`, session_id: 'history' });
      expect(turn.status).toBe(200);
    }
    const hours = (await first.get('/usage/history?days=1&bucket=hour')).body as unknown as History;
    expect(hours.bucket).toBe('hour');
    expect(hours.to - hours.from).toBe(86_400);
    expect(hours.totals).toMatchObject({ input_tokens: 80, output_tokens: 8, requests: 2 });
    expect(hours.points).toHaveLength(1);
    expect(hours.points[0]).toMatchObject({ provider: 'openai', model: 'gpt-4o', requests: 2 });
    expect(hours.points[0]?.start ?? 0).toBe(Math.floor(Date.now() / 3_600_000) * 3600);

    await first.gw.gateway.close();
    const second = await startChatTestBed(undefined, { home: first.gw.home });
    beds.push(second);
    expect((await second.get('/usage')).body).toEqual({ models: {}, total_cost_usd: 0 });
    const days = (await second.get('/usage/history')).body as unknown as History;
    expect(days).toMatchObject({ bucket: 'day', days: 7 });
    expect(days.totals).toMatchObject({ input_tokens: 80, requests: 2 });
    second.fake.reply({ text: 'Third.', usage: { inputTokens: 1, outputTokens: 1 } });
    expect((await second.post('/chat', { message: 'three', session_id: 'history' })).status).toBe(
      200,
    );
    const after = (await second.get('/usage/history?days=1')).body as unknown as History;
    expect(after.totals).toMatchObject({ input_tokens: 81, requests: 3 });
    expect(after.points).toHaveLength(1);
  });

  it('refuses hostile query strings with 422 and a detail', async () => {
    const bed = beds.at(-1) ?? (await startChatTestBed());
    if (beds.length === 0) beds.push(bed);
    for (const query of [
      'days=0',
      'days=-1',
      'days=91',
      'days=1.5',
      'days=abc',
      'days=',
      'days=1e400',
      'days=99999999999999999999',
      'days=1&days=2',
      'days=Infinity',
      'days=%00',
      'bucket=week',
      'bucket=HOUR',
      'bucket=hour&days=15',
      `bucket=${'x'.repeat(5000)}`,
    ]) {
      const res = await fetch(`${bed.gw.url}/api/v1/usage/history?${query}`);
      expect(res.status, query).toBe(422);
      const body = (await res.json()) as { detail?: unknown };
      expect(body.detail, query).toBeTruthy();
    }
    const widest = await bed.get('/usage/history?days=90&bucket=day');
    expect(widest.status).toBe(200);
    const hourly = await bed.get('/usage/history?days=14&bucket=hour');
    expect(hourly.status).toBe(200);
  });

  it('is in the OpenAPI document', async () => {
    const bed = beds.at(-1);
    const res = await fetch(`${bed?.gw.url ?? ''}/openapi.json`);
    const doc = (await res.json()) as { paths?: Record<string, unknown> };
    expect(Object.keys(doc.paths ?? {})).toContain('/api/v1/usage/history');
  });
});
