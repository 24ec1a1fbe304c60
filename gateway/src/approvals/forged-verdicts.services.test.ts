/**
 * Issue #26: a process that reaches the gateways' Redis but holds no cluster secret (a skill,
 * another container on the network) reads the board and publishes on the approval channels.
 * Nothing it writes decides an approval: a gated command it "approves" stays pending and is
 * denied at expiry, never run. Gateways with the same cluster secret still decide for each
 * other; a gateway without one refuses to share and says why in /status.
 */
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  redisServerProcess,
  type RedisServerProcess,
} from '../memory/short-term/testing/redis-server.ts';
import { TEST_CLUSTER_SECRET, testSeal } from '../scale-out/testing/test-seal.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { ReplyScript } from '../testing/fakes/fake-llm/script.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { DENIED_TEXT } from './approval-service.ts';
import { pendingApprovals, waitForPending } from '../testing/gateway/approval-polling.ts';

type Json = Record<string, unknown>;

const EXPIRY_MS = 2_500;
const shell = (command: string): ReplyScript => ({
  toolCalls: [{ name: 'shell', arguments: { command } }],
});
const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];

let redis: RedisServerProcess;
let a: ChatTestBed;
let b: ChatTestBed;
let attacker: ReturnType<typeof createClient>;

const gateway = (clusterSecret = TEST_CLUSTER_SECRET) =>
  startChatTestBed(undefined, {
    approvalExpiryMs: EXPIRY_MS,
    config: { gateway: { cluster_secret: clusterSecret }, memory: { cache_url: redis.url } },
  });

/** What the attacker sees on Redis: the verdict channel of each gateway. */
async function verdictChannels(): Promise<string[]> {
  return attacker.pubSubChannels('hearth:ap:verdicts:*');
}

beforeAll(async () => {
  redis = await redisServerProcess();
  await redis.start();
  a = await gateway();
  b = await gateway();
  attacker = createClient({ url: redis.url });
  await attacker.connect();
});

afterEach(() => {
  a.fake.reset();
  b.fake.reset();
});

afterAll(async () => {
  await attacker?.close();
  await a?.close();
  await b?.close();
  await redis?.kill();
});

describe('a forger on the shared Redis, without the cluster secret', () => {
  it('publishes "approved" for a pending call and writes a decision: the call is denied at expiry, never run', async () => {
    a.fake.reply(shell('echo forged'), { text: 'It was denied.' });
    const started = Date.now();
    const turn = a.post('/chat', { message: 'run it', session_id: 'forged-verdict' });
    const waiting = await waitForPending(b, 'echo forged', 10_000);

    // Everything the attacker can learn and write without the key.
    expect(await attacker.zRange('hearth:ap:pending', 0, -1)).toContain(waiting.id);
    const channels = await verdictChannels();
    expect(channels).toHaveLength(2);
    const forged = JSON.stringify({ id: waiting.id, decision: 'approved', always_allowed: true });
    const stranger = testSeal('a-guessed-cluster-secret-0123456789abcdef');
    await attacker.set(`hearth:ap:v:${waiting.id}`, 'approved');
    for (const channel of channels) {
      await attacker.publish(channel, forged);
      await attacker.publish(channel, stranger.seal(channel, forged));
      const sealed = JSON.parse(stranger.seal(channel, forged)) as Json;
      await attacker.publish(channel, JSON.stringify({ ...sealed, m: undefined }));
    }

    // Still pending on both gateways while the forgeries arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await pendingApprovals(a)).map((p) => p.id)).toEqual([waiting.id]);
    expect((await pendingApprovals(b)).map((p) => p.id)).toEqual([waiting.id]);

    expect((await turn).body.reply).toBe('It was denied.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(EXPIRY_MS - 100);
    expect(toolResults(a.fake.requests[1])).toEqual([DENIED_TEXT]);
    const { backends } = (await a.get('/status')).body as { backends: Json };
    expect(backends.scale_out).toBe('redis (authenticated)');
    expect(String(backends.redis_password)).toMatch(/^none: .*cache_password_secret/);
    expect(String(backends.scale_out_rejected)).toMatch(/bad_mac=\d+/);
    expect(String(backends.scale_out_rejected)).toMatch(/unreadable=\d+/);
  });

  it('changes the command of a pending entry: it is not listed or approvable, and ends denied', async () => {
    a.fake.reply(shell('echo tampered'), { text: 'Not run.' });
    const turn = a.post('/chat', { message: 'run it', session_id: 'forged-entry' });
    const waiting = await waitForPending(b, 'echo tampered', 10_000);
    const key = `hearth:ap:e:${waiting.id}`;
    const stored = JSON.parse((await attacker.get(key))!) as { p: string; m: string };
    await attacker.set(
      key,
      JSON.stringify({ ...stored, p: stored.p.replaceAll('echo tampered', 'echo pwned') }),
      { KEEPTTL: true },
    );
    expect(await pendingApprovals(b)).toEqual([]);
    expect((await b.post(`/approvals/${waiting.id}/approve`, {})).status).toBe(404);
    expect((await turn).body.reply).toBe('Not run.');
    expect(toolResults(a.fake.requests[1])).toEqual([DENIED_TEXT]);
  });

  it('does not stop gateways with the same secret deciding for each other', async () => {
    a.fake.reply(shell('echo genuine'), { text: 'Ran it.' });
    const turn = a.post('/chat', { message: 'run it', session_id: 'genuine-verdict' });
    const waiting = await waitForPending(b, 'echo genuine', 10_000);
    expect((await b.post(`/approvals/${waiting.id}/approve`, {})).status).toBe(200);
    expect((await turn).body.reply).toBe('Ran it.');
    expect(toolResults(a.fake.requests[1])).toEqual(['exit code 0\nstdout:\ngenuine\n']);
  });
});

describe('a gateway with cache_url but no cluster secret', () => {
  it('refuses to share approvals and session events, says why in /status, and still decides its own', async () => {
    const alone = await gateway('');
    try {
      const { backends } = (await alone.get('/status')).body as { backends: Json };
      expect(String(backends.scale_out)).toMatch(/^refused: .*cluster_secret/);
      expect(String(backends.scale_out)).toContain('openssl rand -hex 32');
      expect(backends).toMatchObject({
        approvals: 'in-process (not shared: see scale_out)',
        events: 'in-process',
      });
      alone.fake.reply(shell('echo local'), { text: 'Ran locally.' });
      const turn = alone.post('/chat', { message: 'run it', session_id: 'no-secret' });
      const waiting = await waitForPending(alone, 'echo local', 10_000);
      // Not on the shared board: peers neither list nor decide it.
      expect((await pendingApprovals(b)).map((p) => p.id)).not.toContain(waiting.id);
      expect((await b.post(`/approvals/${waiting.id}/approve`, {})).status).toBe(404);
      expect((await alone.post(`/approvals/${waiting.id}/approve`, {})).status).toBe(200);
      expect((await turn).body.reply).toBe('Ran locally.');
    } finally {
      await alone.close();
    }
  });

  it('a secret shorter than 32 characters is refused the same way', async () => {
    const short = await gateway('too-short');
    try {
      const { backends } = (await short.get('/status')).body as { backends: Json };
      expect(String(backends.scale_out)).toMatch(/^refused: .*shorter than 32 characters/);
    } finally {
      await short.close();
    }
  });
});
