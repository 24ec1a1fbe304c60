/**
 * The spec: "Slash commands in any channel: `/model <provider>` and `/model auto`,
 * `/think <level>`, `/privacy on|off` (bare `/privacy` shows the state), ...". Through a
 * messaging channel (the webhook one) on a real gateway: the answer comes back on the channel
 * and no model is called.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../../config/schema.ts';
import { sessionIdFor } from '../../memory/session-id.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { startCallbackServer, type CallbackServer } from '../testing/callback-server.ts';
import { signedHeaders } from './signature.ts';

const SECRET = 'webhook-signing-secret';
const OWNER = 'owner-1';

describe('slash commands over a messaging channel', () => {
  let bed: ChatTestBed;
  let callback: CallbackServer;
  let seq = 0;

  /** Delivers `text` from the owner and returns the text the channel sent back. */
  async function say(text: string): Promise<string> {
    const body = JSON.stringify({ id: `slash-${(seq += 1)}`, sender: OWNER, text });
    const res = await fetch(`${bed.gw.url}/api/v1/channels/webhook/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, Date.now(), body) },
      body,
    });
    expect(res.status).toBe(200);
    const [reply] = await callback.next();
    expect(reply?.chat).toBe(OWNER);
    return reply?.text ?? '';
  }

  const runtime = async () => (await bed.get('/settings')).body.runtime as Record<string, unknown>;

  beforeAll(async () => {
    callback = await startCallbackServer(SECRET);
    bed = await startChatTestBed(undefined, {
      config: {
        channels: {
          hooks: channelSchema.parse({
            type: 'webhook',
            signing_secret: SECRET,
            callback_url: callback.url,
            allow_from: [OWNER],
            reply_mode: 'all',
          }),
        },
      },
    });
  });
  afterAll(async () => {
    await bed.close();
    await callback.close();
  });
  afterEach(() => bed.fake.reset());

  it('/privacy on|off toggles privacy mode; bare /privacy shows it', async () => {
    expect(await say('/privacy on')).toBe(
      'Privacy mode is on: every request goes to the local model.',
    );
    expect((await runtime()).privacy_mode).toBe(true);
    expect(await say('/privacy')).toBe(
      'Privacy mode is on: every request goes to the local model.',
    );
    expect(await say('/privacy off')).toBe('Privacy mode is off.');
    expect((await runtime()).privacy_mode).toBe(false);
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('/model <provider>, /model auto and /think <level>', async () => {
    expect(await say('/model claude')).toMatch(/^Model: anthropic;/);
    expect((await runtime()).provider).toBe('anthropic');
    expect(await say('/model auto')).toMatch(/^Model: automatic routing;/);
    expect((await runtime()).provider).toBeNull();
    expect(await say('/think high')).toContain('thinking: high');
    expect((await runtime()).thinking).toBe('high');
    await say('/think off');
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('/tag and /tags act on the channel session’s memories', async () => {
    const session_id = sessionIdFor('hooks', OWNER);
    expect(
      (await bed.post('/memory', { content: 'The boiler is due in March.', session_id })).status,
    ).toBe(200);
    expect(await say('/tags')).toBe('No tags yet. Use /tag <name>.');
    expect(await say('/tag house')).toBe('Tagged 1 memory with "house".');
    expect(await say('/tags')).toBe('house (1)');
    expect(bed.fake.requests).toHaveLength(0);
  });
});
