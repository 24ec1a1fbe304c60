/**
 * The privacy audit resource, through REST: "Entry: session_id, method, url, destination
 * (host), timestamp (epoch seconds). Metadata only, never bodies … Storage: a database at
 * {data_dir}/privacy_audit.db … It persists across restarts." An outbound request a skill asks
 * the gateway to make is recorded for the turn; a gateway restarted on the same state directory
 * still reports it, and "entries older than 90 days are pruned automatically" when it opens.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { openAuditStore } from './audit-store.ts';

const DAY = 86_400;

const FETCHER = [
  '// hearth:hosts api.weather.example',
  '/**',
  ' * Fetches a URL.',
  ' * @param {string} url',
  ' */',
  'export async function get(url) {',
  '  try {',
  "    const response = await fetch(url, { method: 'POST', body: 'the-secret-body' });",
  '    return `status ${response.status}`;',
  '  } catch (error) {',
  '    return `refused: ${error.message}`;',
  '  }',
  '}',
  '',
].join('\n');

describe('the privacy audit through REST', () => {
  it('records a turn’s outbound request in {data_dir}/privacy_audit.db and still reports it after a restart', async () => {
    const bed = await startChatTestBed();
    const home = bed.gw.home;
    let recorded: Record<string, unknown>[];
    try {
      expect((await bed.post('/skills', { name: 'fetcher', code: FETCHER })).status).toBe(201);
      bed.fake.reply(
        {
          toolCalls: [
            { name: 'fetcher_get', arguments: { url: 'https://elsewhere.example/x?y=1' } },
          ],
        },
        { text: 'done' },
      );
      expect((await bed.post('/chat', { message: 'go', session_id: 'audit-kept' })).status).toBe(
        200,
      );
      const report = await bed.get('/privacy/report?session_id=audit-kept');
      expect(report.body).toMatchObject({
        session_id: 'audit-kept',
        total: 1,
        unique_destinations: ['elsewhere.example'],
      });
      recorded = report.body.entries as Record<string, unknown>[];
      expect(recorded).toEqual([
        expect.objectContaining({
          session_id: 'audit-kept',
          method: 'POST',
          url: expect.stringContaining('https://elsewhere.example/x'),
          destination: 'elsewhere.example',
          timestamp: expect.any(Number),
        }),
      ]);
      const timestamp = recorded[0]!.timestamp as number;
      // Epoch seconds, not milliseconds.
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
      // Metadata only: the request body is nowhere in the report.
      expect(JSON.stringify(report.body)).not.toContain('the-secret-body');
      await access(join(home, 'privacy_audit.db'));
    } finally {
      // Close without removing the state directory: the restart below reuses it.
      await bed.gw.gateway.close();
      await bed.fake.close();
    }

    // While the gateway is down, two entries of another session: 91 and 89 days old.
    const stopped = openAuditStore(join(home, 'privacy_audit.db'));
    const now = Date.now() / 1000;
    for (const [days, host] of [
      [91, 'old.example'],
      [89, 'recent.example'],
    ] as const)
      stopped.record({
        session_id: 'audit-aged',
        method: 'GET',
        url: `https://${host}/`,
        destination: host,
        timestamp: now - days * DAY,
      });
    stopped.close();

    const restarted = await startChatTestBed(undefined, { home });
    try {
      const report = await restarted.get('/privacy/report?session_id=audit-kept');
      expect(report.body).toEqual({
        session_id: 'audit-kept',
        total: 1,
        unique_destinations: ['elsewhere.example'],
        entries: recorded,
      });
      const aged = await restarted.get('/privacy/report?session_id=audit-aged');
      expect(aged.body).toMatchObject({ total: 1, unique_destinations: ['recent.example'] });
    } finally {
      await restarted.close();
    }
  });

  it('keeps recording in privacy mode (rule 12: "The audit log keeps recording")', async () => {
    const bed = await startChatTestBed();
    try {
      expect((await bed.post('/settings/privacy', { enabled: true })).status).toBe(200);
      expect((await bed.post('/skills', { name: 'fetcher', code: FETCHER })).status).toBe(201);
      bed.fake.reply(
        { toolCalls: [{ name: 'fetcher_get', arguments: { url: 'https://private.example/' } }] },
        { text: 'done' },
      );
      const turn = await bed.post('/chat', { message: 'go', session_id: 'audit-private' });
      expect(turn.body).toMatchObject({ provider: 'ollama' });
      const report = await bed.get('/privacy/report?session_id=audit-private');
      expect(report.body).toMatchObject({ total: 1, unique_destinations: ['private.example'] });
    } finally {
      await bed.close();
    }
  });
});
