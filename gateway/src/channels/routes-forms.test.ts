/**
 * The interface's channel shapes, both forms at once (DESIGN: where two response shapes differ,
 * the response carries the union): `GET /channels` is form A's `{channels: [list item]}` and
 * "form B adds a ping result"; `GET /channels/{name}` is form A's detail and form B's "status
 * plus a config schema".
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../config/schema.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { gatewayApi, type Json } from './testing/channel-test-kit.ts';

const SECRET = 'forms-signing-secret-value';
const ACCESS_TOKEN = 'syt_forms-access-token-value';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /channels and /channels/{name}: form A and form B together', () => {
  let bed: ChatTestBed;
  const { call } = gatewayApi(() => bed.gw.url);

  beforeAll(async () => {
    const down = await closedPort();
    bed = await startChatTestBed(undefined, {
      config: {
        channels: {
          hooks: channelSchema.parse({ type: 'webhook', signing_secret: SECRET }),
          mx: channelSchema.parse({
            type: 'matrix',
            homeserver_url: `http://127.0.0.1:${down}`,
            access_token: ACCESS_TOKEN,
            user_id: '@hearth:example.org',
          }),
          off: channelSchema.parse({ type: 'webhook', signing_secret: SECRET, enabled: false }),
        },
      },
    });
    await bed.gw.gateway.whenReady();
  });
  afterAll(() => bed.close());

  it('lists form A items and adds the ping result: the enabled channel that is down fails it', async () => {
    const list = await eventually(
      () => call('GET', '/channels'),
      (res) => (res.body.ping as { failing: Json[] }).failing[0]?.detail !== undefined,
    );
    expect(list.status).toBe(200);
    const items = list.body.channels as Json[];
    expect(items.map((item) => item.name).sort()).toEqual(['hooks', 'mx', 'off']);
    for (const item of items)
      expect(Object.keys(item)).toEqual(
        expect.arrayContaining(['name', 'status', 'unread', 'messages_total', 'last_message_at']),
      );
    const mx = items.find((item) => item.name === 'mx')!;
    expect(list.body.ping).toEqual({
      ok: false,
      enabled: 2,
      connected: 1,
      failing: [{ name: 'mx', status: mx.status, detail: expect.any(String) }],
    });
    expect(mx.status).not.toBe('connected');
  });

  it('the ping is ok once every enabled channel is up', async () => {
    expect((await call('POST', '/channels/mx/disable')).status).toBe(200);
    try {
      const list = await call('GET', '/channels');
      expect(list.body.ping).toEqual({ ok: true, enabled: 1, connected: 1, failing: [] });
    } finally {
      await call('POST', '/channels/mx/enable');
    }
  });

  it('a detail is form A (status, config, stats) plus the JSON Schema of its type', async () => {
    const res = await call('GET', '/channels/hooks');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'hooks',
      status: 'connected',
      config: { enabled: true, reply_mode: 'mention', rate_limit_per_minute: 20 },
      stats: { messages_in_total: 0, messages_out_total: 0, errors_total: 0 },
    });
    const schema = res.body.config_schema as {
      type: string;
      properties: Record<string, Json>;
      required: string[];
    };
    expect(schema.type).toBe('object');
    expect(schema.properties.type).toMatchObject({ const: 'webhook' });
    expect(schema.properties.signing_secret).toMatchObject({ type: 'string' });
    expect(schema.properties.rate_limit_per_minute).toMatchObject({
      type: 'integer',
      minimum: 1,
      default: 20,
    });
    expect(schema.properties.reply_mode).toMatchObject({ enum: ['all', 'mention', 'dm_only'] });
    expect(schema.required).toEqual(expect.arrayContaining(['type', 'signing_secret']));
    expect(schema.required).not.toContain('rate_limit_per_minute');
  });

  it('each type gets its own schema, and no configured value (a secret) is in it', async () => {
    const mx = await call('GET', '/channels/mx');
    const properties = (mx.body.config_schema as { properties: Record<string, Json> }).properties;
    expect(properties.type).toMatchObject({ const: 'matrix' });
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['homeserver_url', 'access_token', 'user_id']),
    );
    expect(properties.signing_secret).toBeUndefined();
    for (const name of ['hooks', 'mx', 'off']) {
      const text = JSON.stringify((await call('GET', `/channels/${name}`)).body);
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(ACCESS_TOKEN);
    }
    expect(JSON.stringify((await call('GET', '/channels')).body)).not.toContain(ACCESS_TOKEN);
  });

  it('an unknown channel is still a 404', async () => {
    expect(await call('GET', '/channels/nobody')).toEqual({
      status: 404,
      body: { detail: "No channel named 'nobody' is configured" },
    });
  });
});
