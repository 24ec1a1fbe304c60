import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteKeys,
  requireRedis,
  testRedisUrl,
} from '../memory/short-term/testing/redis-server.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { canvasViewer } from './testing/viewer.ts';
import { TEST_CLUSTER_SECRET } from '../scale-out/testing/test-seal.ts';

// Two gateways on one `[memory] cache_url` (the real Redis, its own database number so the
// canvas keys of this run touch no one else's): one canvas, viewers on either see everything.
const base = testRedisUrl(process.env);
const database = 9;
const cacheUrl = `${base.replace(/\/\d*$/, '')}/${database}`;
const marker = `canvas-${randomBytes(4).toString('hex')}`;

describe('canvas shared by two gateways through Redis', () => {
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    await requireRedis(base);
    await deleteKeys(cacheUrl, 'hearth:canvas:');
    a = await startTestGateway({
      config: { gateway: { cluster_secret: TEST_CLUSTER_SECRET }, memory: { cache_url: cacheUrl } },
    });
    b = await startTestGateway({
      config: { gateway: { cluster_secret: TEST_CLUSTER_SECRET }, memory: { cache_url: cacheUrl } },
    });
    await Promise.all([a.gateway.whenReady(), b.gateway.whenReady()]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await deleteKeys(cacheUrl, 'hearth:canvas:');
  });

  const post = (gw: TestGateway, body: unknown) =>
    fetch(`${gw.url}/api/v1/canvas/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('shows a block rendered on one gateway to viewers and readers of the other', async () => {
    const onB = await canvasViewer(`ws://127.0.0.1:${b.port}/ws/canvas`);
    await onB.next((f) => f.type === 'state');
    const response = await post(a, { type: 'markdown', content: marker });
    expect(response.status).toBe(201);
    const block = (await response.json()) as { id: string };
    expect(await onB.next((f) => f.type === 'add')).toEqual({ type: 'add', block });
    const state = (await (await fetch(`${b.url}/api/v1/canvas/state`)).json()) as {
      blocks: unknown[];
    };
    expect(state.blocks).toContainEqual(block);
    // The sandbox page of an html block rendered on A is served by B too.
    const html = (await (await post(a, { type: 'html', content: '<p>shared</p>' })).json()) as {
      id: string;
    };
    expect((await fetch(`${b.url}/canvas/frame/${html.id}`)).status).toBe(200);

    const late = await canvasViewer(`ws://127.0.0.1:${a.port}/ws/canvas`);
    expect((await late.next((f) => f.type === 'state')).count).toBe(2);
    const cleared = await fetch(`${b.url}/api/v1/canvas/clear`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(await late.next((f) => f.type === 'clear')).toEqual({ type: 'clear' });
    expect(await onB.next((f) => f.type === 'clear')).toEqual({ type: 'clear' });
    const status = (await (await fetch(`${a.url}/api/v1/status`)).json()) as {
      backends: Record<string, string>;
    };
    expect(status.backends.canvas).toBe('redis');
    onB.socket.close();
    late.socket.close();
  });
});
