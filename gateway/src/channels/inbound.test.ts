/**
 * What far ends fill in the inbound path's memory stays bounded: the message ids kept against
 * duplicates, the sessions whose chat approval notices go to, and the turns one channel runs at
 * once. The inbound path is the real one; its store is a small in-memory table.
 */
import { describe, expect, it } from 'vitest';
import { channelSchema } from '../config/schema.ts';
import type { ChannelMessageRow, ChannelPairing, ChannelRepository } from '../db/ports.ts';
import { sessionIdFor } from '../memory/ports.ts';
import { silentLogger } from '../observability/logger.ts';
import { createHostStats } from '../observability/host-stats.ts';
import { createMetrics } from '../observability/metrics.ts';
import {
  createInbound,
  MAX_SESSION_CHATS,
  MAX_TURNS_PER_CHANNEL,
  type ChannelContext,
  type RunTurn,
} from './inbound.ts';
import { createPairings } from './pairing.ts';
import type { ChannelAdapter, InboundMessage } from './ports.ts';
import { createTokenBuckets } from './token-bucket.ts';

const OWNER = 'owner';

function memoryStore() {
  const rows: ChannelMessageRow[] = [];
  const pairings = new Map<string, ChannelPairing>();
  const store: Pick<ChannelRepository, 'addMessage' | 'pairing' | 'savePairing'> = {
    addMessage: (row) => {
      rows.push(row);
      return Promise.resolve();
    },
    pairing: (channel, sender) => Promise.resolve(pairings.get(`${channel}:${sender}`)),
    savePairing: (pairing) => {
      pairings.set(`${pairing.channel}:${pairing.sender_id}`, pairing);
      return Promise.resolve();
    },
  };
  return { rows, store: store as ChannelRepository };
}

function setUp(runTurn: RunTurn) {
  const { rows, store } = memoryStore();
  const sent: string[] = [];
  const adapter: ChannelAdapter = {
    type: 'webhook',
    maxTextLength: 1000,
    connect: () => Promise.resolve(),
    disconnect: () => Promise.resolve(),
    sendText: (chatId) => {
      sent.push(chatId);
      return Promise.resolve();
    },
  };
  const config = channelSchema.parse({
    type: 'webhook',
    signing_secret: 'x',
    allow_from: [OWNER],
    reply_mode: 'all',
  });
  const ctx: ChannelContext = {
    name: 'hooks',
    config,
    adapter: () => adapter,
    buckets: createTokenBuckets({ perMinute: () => 20, now: Date.now }),
    errors: { count: 0 },
  };
  const inbound = createInbound({
    store: () => store,
    pairings: createPairings({ store: () => store, now: Date.now }),
    runTurn,
    metrics: createMetrics(createHostStats('/')),
    logger: silentLogger(),
    now: Date.now,
  });
  return { inbound, ctx, rows, sent };
}

const message = (chatId: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
  chatId,
  senderId: OWNER,
  text: 'hello',
  direct: true,
  mentioned: false,
  ...extra,
});

describe('the inbound path’s memory is bounded whatever a far end sends', () => {
  it(`keeps the chats of the latest ${MAX_SESSION_CHATS} sessions for approval notices`, async () => {
    const { inbound, ctx } = setUp(() => Promise.resolve({ reply: 'ok' }));
    for (let i = 0; i <= MAX_SESSION_CHATS; i += 1) {
      await inbound.receive(ctx, message(`chat-${i}`));
      if (i % 16 === 0) await inbound.idle();
    }
    await inbound.idle();
    expect(await inbound.notice(sessionIdFor('hooks', `chat-${MAX_SESSION_CHATS}`), 'n')).toBe(
      true,
    );
    expect(await inbound.notice(sessionIdFor('hooks', 'chat-1'), 'n')).toBe(true);
    expect(await inbound.notice(sessionIdFor('hooks', 'chat-0'), 'n')).toBe(false);
  });

  it(`runs at most ${MAX_TURNS_PER_CHANNEL} turns of one channel at once; more are counted, not answered`, async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const { inbound, ctx, sent } = setUp(async ({ sessionId }) => {
      started.push(sessionId);
      await gate;
      return { reply: 'done' };
    });
    for (let i = 0; i < MAX_TURNS_PER_CHANNEL + 8; i += 1)
      await inbound.receive(ctx, message(`chat-${i}`));
    expect(started).toHaveLength(MAX_TURNS_PER_CHANNEL);
    expect(ctx.errors.count).toBe(8);
    release();
    await inbound.idle();
    expect(sent).toHaveLength(MAX_TURNS_PER_CHANNEL);
    // Room again once they ended.
    await inbound.receive(ctx, message('chat-late'));
    await inbound.idle();
    expect(started).toHaveLength(MAX_TURNS_PER_CHANNEL + 1);
  });
});
