/**
 * Issue #26: a process that reaches the gateways' Redis but holds no cluster secret (a skill,
 * another container on the network) writes to the shared canvas' list and publishes on its
 * channel. Nothing it writes reaches a viewer or a listing: a forged block or clear, a genuine
 * event replayed, and a genuine entry or event moved from another canvas are dropped and
 * counted in /status. Gateways with the same cluster secret still share the canvas; a gateway
 * without one keeps its own and says so.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteKeys,
  requireRedis,
  testRedisUrl,
} from '../memory/short-term/testing/redis-server.ts';
import { silentLogger } from '../observability/logger.ts';
import { createRedisLink } from '../redis/link.ts';
import { testSeal } from '../scale-out/testing/test-seal.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { CONFORMANCE_LIMITS, textBlock } from './conformance.ts';
import type { CanvasBlock } from './ports.ts';
import { createRedisCanvasStore } from './redis.ts';
import { canvasViewer, type CanvasViewer, type Frame } from './testing/viewer.ts';

// The real Redis, a database of this file's own for the keys. Pub/sub is not per database, so
// these gateways trust one another with a secret of their own: no other test's gateway on the
// same Redis takes part in this canvas.
const base = testRedisUrl(process.env);
const cacheUrl = `${base.replace(/\/\d*$/, '')}/12`;
const SECRET = 'forged-canvas-test-secret-0123456789abcdef';
const LIST = 'hearth:canvas:blocks';
const CHANNEL = 'hearth:canvas:events';

let a: TestGateway;
let b: TestGateway;
let attacker: ReturnType<typeof createClient>;
let listener: ReturnType<typeof createClient>;
/** The messages these gateways sent on the canvas channel, as the attacker sees them. */
const heard: string[] = [];
/** Tells these gateways' messages from other tests' on the same Redis (pub/sub is global). */
const ours = testSeal(SECRET);

const render = async (gw: TestGateway, content: string): Promise<CanvasBlock> => {
  const response = await fetch(`${gw.url}/api/v1/canvas/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'markdown', content }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as CanvasBlock;
};
const clear = async (gw: TestGateway) =>
  expect((await fetch(`${gw.url}/api/v1/canvas/clear`, { method: 'DELETE' })).status).toBe(204);
const contents = async (gw: TestGateway): Promise<unknown[]> =>
  (
    (await (await fetch(`${gw.url}/api/v1/canvas/state`)).json()) as { blocks: CanvasBlock[] }
  ).blocks.map((block) => block.content);
const backends = async (gw: TestGateway) =>
  (
    (await (await fetch(`${gw.url}/api/v1/status`)).json()) as {
      backends: Record<string, string>;
    }
  ).backends;

/** The frames `viewer` got after `from` up to the add of `until` (a sentinel render). */
async function framesBetween(viewer: CanvasViewer, from: number, until: CanvasBlock) {
  await viewer.next((f) => f.type === 'add' && (f.block as CanvasBlock).id === until.id);
  const end = viewer.frames.findIndex(
    (f) => f.type === 'add' && (f.block as CanvasBlock).id === until.id,
  );
  return viewer.frames.slice(from, end);
}
const describeFrame = (f: Frame) =>
  f.type === 'add' ? `add ${JSON.stringify((f.block as CanvasBlock).content)}` : f.type;

beforeAll(async () => {
  await requireRedis(base);
  await deleteKeys(cacheUrl, 'hearth:canvas:');
  const config = { gateway: { cluster_secret: SECRET }, memory: { cache_url: cacheUrl } };
  a = await startTestGateway({ config });
  b = await startTestGateway({ config });
  await Promise.all([a.gateway.whenReady(), b.gateway.whenReady()]);
  attacker = createClient({ url: cacheUrl });
  await attacker.connect();
  listener = attacker.duplicate();
  await listener.connect();
  await listener.subscribe(CHANNEL, (message) => {
    if (ours.open(CHANNEL, message) !== undefined) heard.push(message);
  });
});

afterAll(async () => {
  await listener?.close();
  await attacker?.close();
  await Promise.all([a?.close(), b?.close()]);
  await deleteKeys(cacheUrl, 'hearth:canvas:');
});

describe('a forger on the shared canvas, without the cluster secret', () => {
  it('cannot add or clear blocks: no viewer sees it and no listing includes it', async () => {
    await clear(a);
    const kept = await render(a, 'kept');
    const viewer = await canvasViewer(`${b.url.replace('http', 'ws')}/ws/canvas`);
    await viewer.next((f) => f.type === 'state');
    const from = viewer.frames.length;
    const stranger = testSeal('another-secret-not-the-cluster-one-0123456789');
    const forged = { id: '7d1f6a3e-0000-4000-8000-000000000001', type: 'html' };
    const block = { ...forged, content: '<p>forged</p>', created_at: '2026-11-27T00:00:00Z' };

    // Straight into the list: unsigned, and signed with the wrong key.
    await attacker.rPush(LIST, JSON.stringify(block));
    await attacker.rPush(LIST, stranger.sign(LIST, JSON.stringify({ ...block, content: 'k' })));
    // On the channel: unsigned, sealed with the wrong key, and a genuine-looking seal stripped.
    await attacker.publish(CHANNEL, JSON.stringify({ type: 'add', block }));
    await attacker.publish(CHANNEL, JSON.stringify({ type: 'clear' }));
    await attacker.publish(CHANNEL, stranger.seal(CHANNEL, JSON.stringify({ type: 'clear' })));
    const sealed = JSON.parse(stranger.seal(CHANNEL, JSON.stringify({ type: 'clear' }))) as object;
    await attacker.publish(CHANNEL, JSON.stringify({ ...sealed, m: undefined }));

    const sentinel = await render(a, 'sentinel');
    expect((await framesBetween(viewer, from, sentinel)).map(describeFrame)).toEqual([]);
    expect(await contents(a)).toEqual([kept.content, 'sentinel']);
    expect(await contents(b)).toEqual([kept.content, 'sentinel']);
    // Counted with the rest of the bus' rejections, by reason.
    expect((await backends(b)).scale_out_rejected).toMatch(/bad_mac=\d+/);
    expect((await backends(b)).scale_out_rejected).toMatch(/unreadable=\d+/);
    expect((await backends(a)).canvas).toBe('redis');
    viewer.socket.close();
  });

  it('cannot replay a genuine add or clear', async () => {
    heard.length = 0;
    await clear(a);
    const old = await render(a, 'old');
    await clear(a);
    await expect.poll(() => heard.length).toBe(3);
    const [, addOld, clearMessage] = heard as [string, string, string];
    const current = await render(a, 'current');
    const viewer = await canvasViewer(`${b.url.replace('http', 'ws')}/ws/canvas`);
    await viewer.next((f) => f.type === 'state');
    const from = viewer.frames.length;

    await attacker.publish(CHANNEL, clearMessage);
    await attacker.publish(CHANNEL, addOld);
    const sentinel = await render(a, 'sentinel');
    expect((await framesBetween(viewer, from, sentinel)).map(describeFrame)).toEqual([]);
    expect(await contents(b)).toEqual([current.content, 'sentinel']);
    expect(await contents(a)).not.toContain(old.content);
    expect((await backends(b)).scale_out_rejected).toMatch(/replayed=\d+/);
    viewer.socket.close();
  });

  it('cannot move a genuine entry or event from another canvas onto this one', async () => {
    await clear(a);
    // Another canvas signed with the same secret (other keys on the same Redis).
    const link = await createRedisLink({ url: cacheUrl, logger: silentLogger() });
    const elsewhere = await createRedisCanvasStore({
      link,
      limits: CONFORMANCE_LIMITS,
      logger: silentLogger(),
      seal: testSeal(SECRET),
      keyPrefix: 'hearth:canvas:elsewhere:',
    });
    const moved: string[] = [];
    await listener.subscribe('hearth:canvas:elsewhere:events', (message) => moved.push(message));
    try {
      const viewer = await canvasViewer(`${b.url.replace('http', 'ws')}/ws/canvas`);
      await viewer.next((f) => f.type === 'state');
      const from = viewer.frames.length;
      await elsewhere.add(textBlock('from elsewhere'));
      await expect.poll(() => moved.length).toBe(1);
      const [entry] = await attacker.lRange('hearth:canvas:elsewhere:blocks', 0, -1);

      await attacker.rPush(LIST, entry!);
      await attacker.publish(CHANNEL, moved[0]!);
      const sentinel = await render(a, 'sentinel');
      expect((await framesBetween(viewer, from, sentinel)).map(describeFrame)).toEqual([]);
      expect(await contents(a)).toEqual(['sentinel']);
      expect(await contents(b)).toEqual(['sentinel']);
      viewer.socket.close();
    } finally {
      await listener.unsubscribe('hearth:canvas:elsewhere:events');
      await elsewhere.close();
    }
  });
});

describe('a gateway on the shared Redis without a cluster secret', () => {
  it('keeps its own canvas and says so in /status', async () => {
    const lone = await startTestGateway({ config: { memory: { cache_url: cacheUrl } } });
    try {
      await lone.gateway.whenReady();
      const status = await backends(lone);
      expect(status.canvas).toBe('in-process (not shared: see scale_out)');
      expect(status.scale_out).toMatch(/^refused: /);
      await clear(a);
      await render(lone, 'not shared');
      const sentinel = await render(a, 'shared');
      expect(await contents(b)).toEqual([sentinel.content]);
      expect(await contents(lone)).toEqual(['not shared']);
    } finally {
      await lone.close();
    }
  });
});
