/**
 * Several gateways sharing Redis (`[memory] cache_url`): exactly one holds a long-polling
 * channel's connection (a lease in Redis); when its holder is killed the lease expires and a peer
 * takes over. The holder here is a real gateway process killed with SIGKILL; its peer is a
 * gateway in this process. Every message is answered exactly once, none is lost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { requireRedis, testRedisUrl } from '../../memory/short-term/testing/redis-server.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../../testing/fakes/fake-llm/server.ts';
import { startFakeTelegram, type FakeTelegram } from '../testing/fake-telegram.ts';
import { TEST_CLUSTER_SECRET } from '../../scale-out/testing/test-seal.ts';

const REDIS = testRedisUrl(process.env);
const TOKEN = '555:lease-failover';
const CHANNEL = `tg-${randomBytes(4).toString('hex')}`;
const CHATS = Array.from({ length: 20 }, (_, i) => 3_000 + i);
const mainTs = fileURLToPath(new URL('../../main.ts', import.meta.url));

describe('a long-polling channel among gateways sharing Redis', () => {
  let telegram: FakeTelegram;
  let llmA: FakeLlmServer;
  let home: string;
  let holder: ChildProcess;
  let holderUrl = '';
  let peer: ChatTestBed;

  const statusOf = async (url: string) =>
    ((await (await fetch(`${url}/api/v1/channels/${CHANNEL}`)).json()) as { status: string })
      .status;
  const answersPerChat = () =>
    CHATS.map((chat) => telegram.sent.filter((m) => m.chat_id === String(chat)).length);

  beforeAll(async () => {
    await requireRedis(REDIS);
    telegram = await startFakeTelegram(TOKEN);
    llmA = await createFakeLlmServer();
    home = await mkdtemp(join(tmpdir(), 'hearth-lease-'));
    await writeFile(
      join(home, 'config.toml'),
      [
        '[gateway]',
        'port = 0',
        `cluster_secret = "${TEST_CLUSTER_SECRET}"`,
        '[models]',
        'primary = "ollama/llama3.2"',
        'local = "ollama/llama3.2"',
        `ollama_base_url = "${llmA.url}"`,
        '[memory]',
        `cache_url = "${REDIS}"`,
        `[channels.${CHANNEL}]`,
        'type = "telegram"',
        `bot_token = "${TOKEN}"`,
        `api_root = "${telegram.apiRoot}"`,
        `allow_from = [${CHATS.map((c) => `"${c}"`).join(', ')}]`,
      ].join('\n'),
    );
    holder = spawn(process.execPath, [mainTs, '--config', join(home, 'config.toml')], {
      env: { PATH: process.env.PATH, HEARTH_HOME: home, HOME: home },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    holderUrl = await new Promise<string>((resolve, reject) => {
      let log = '';
      const timer = setTimeout(
        () => reject(new Error(`the gateway process did not start:\n${log}`)),
        60_000,
      );
      holder.stdout?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const match = /Hearth listening on (http:\/\/[0-9.:]+)/.exec(log);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      holder.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    });
  }, 90_000);

  afterAll(async () => {
    if (holder.exitCode === null && holder.signalCode === null && holder.pid)
      process.kill(-holder.pid, 'SIGKILL');
    await peer?.close();
    await telegram.close();
    await llmA.close();
    await rm(home, { recursive: true, force: true });
  });

  it('one gateway holds the connection, the other stands by; each message is answered once', async () => {
    await expect.poll(() => statusOf(holderUrl), { timeout: 30_000 }).toBe('connected');
    peer = await startChatTestBed(undefined, {
      config: {
        gateway: { cluster_secret: TEST_CLUSTER_SECRET },
        memory: { cache_url: REDIS },
        channels: {
          [CHANNEL]: channelSchema.parse({
            type: 'telegram',
            bot_token: TOKEN,
            api_root: telegram.apiRoot,
            allow_from: CHATS.map(String),
          }),
        },
      },
    });
    await expect.poll(() => statusOf(peer.gw.url), { timeout: 15_000 }).toBe('standby');
    // A standby gateway is ready: a peer holds the connection.
    expect((await fetch(`${peer.gw.url}/ready`)).status).toBe(200);

    for (const chat of CHATS.slice(0, 10)) telegram.message({ from: chat, text: `before ${chat}` });
    await expect
      .poll(
        () =>
          answersPerChat()
            .slice(0, 10)
            .every((n) => n === 1),
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(peer.fake.requests).toHaveLength(0);
  }, 90_000);

  it('when the holder is killed, the peer takes over: nothing answered twice, nothing lost', async () => {
    if (!holder.pid) throw new Error('no holder process');
    process.kill(-holder.pid, 'SIGKILL');
    // Sent while nobody polls: they wait at the Bot API for the next holder.
    for (const chat of CHATS.slice(10)) telegram.message({ from: chat, text: `after ${chat}` });
    await expect.poll(() => statusOf(peer.gw.url), { timeout: 30_000 }).toBe('connected');
    await expect.poll(() => answersPerChat().every((n) => n >= 1), { timeout: 30_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(answersPerChat()).toEqual(CHATS.map(() => 1));
    expect(peer.fake.requests).toHaveLength(10);
  }, 90_000);
});
