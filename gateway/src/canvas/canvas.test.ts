import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { keyProtocol } from '../ws/socket-secret.ts';
import { FRAME_CSP } from './frame-page.ts';
import { canvasViewer } from './testing/viewer.ts';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

async function call(gw: TestGateway, method: string, path: string, body?: unknown, key?: string) {
  const response = await fetch(`${gw.url}/api/v1${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { 'x-api-key': key } : {}),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as Record<string, unknown>,
  };
}

describe('canvas routes and /ws/canvas on a real gateway', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      config: { canvas: { max_block_bytes: 8_192, max_canvas_bytes: 20_000, max_blocks: 6 } },
    });
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it('renders every block type with 201, lists them in order, and clears with 204', async () => {
    const renders = [
      { type: 'markdown', content: '# Title\n\nSome *text*' },
      { type: 'html', content: '<p id="x">hi</p><script>x.textContent = "ran"</script>' },
      { type: 'chart', content: { type: 'bar', labels: ['a', 'b'], values: [1, 2] } },
      { type: 'image', content: PNG },
      { type: 'code', content: 'const x = 1;', language: 'ts' },
    ];
    const created = [];
    for (const body of renders) {
      const response = await call(gw, 'POST', '/canvas/render', body);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ ...body, id: expect.any(String) });
      created.push(response.body);
    }
    const state = await call(gw, 'GET', '/canvas/state');
    expect(state).toEqual({ status: 200, body: { available: true, blocks: created, count: 5 } });
    const status = await call(gw, 'GET', '/canvas/status');
    expect(status.body).toMatchObject({ available: true, count: 5, backend: 'in-process' });
    // Html blocks fail closed: their scripts are off, and the status says why.
    expect(status.body.html_scripts).toMatch(/^off: .*WebRTC/);
    expect((await call(gw, 'DELETE', '/canvas/clear')).status).toBe(204);
    expect((await call(gw, 'GET', '/canvas/state')).body).toEqual({
      available: true,
      blocks: [],
      count: 0,
    });
  });

  it('takes chart data as the /chat/canvas JSON text too', async () => {
    const response = await call(gw, 'POST', '/canvas/render', {
      type: 'chart',
      content: JSON.stringify({ labels: ['x'], values: [3] }),
    });
    expect(response.body.content).toEqual({ type: 'bar', labels: ['x'], values: [3] });
    await call(gw, 'DELETE', '/canvas/clear');
  });

  it.each([
    [{ type: 'video', content: 'x' }, 'type'],
    [{ type: 'markdown' }, 'content'],
    [{ type: 'markdown', content: '   ' }, 'content: must not be empty'],
    [{ type: 'markdown', content: 'x', extra: 1 }, 'extra'],
    [{ type: 'image', content: 'https://example.com/a.png' }, 'data:image'],
    [{ type: 'image', content: 'data:image/svg+xml;base64,PHN2Zz4=' }, 'data:image'],
    [{ type: 'image', content: 'data:image/png;base64,###' }, 'data:image'],
    [{ type: 'chart', content: { labels: ['a'], values: [1, 2] } }, 'same length'],
    [{ type: 'chart', content: 'not json' }, 'chart'],
    [{ type: 'markdown', content: { labels: ['a'], values: [1] } }, 'text content'],
    [{ type: 'markdown', content: 'x', language: 'ts' }, 'language'],
    [{ type: 'code', content: 'x', language: 'a b' }, 'language'],
  ])('refuses %j with 422 naming %s, adding nothing', async (body, named) => {
    const response = await call(gw, 'POST', '/canvas/render', body);
    expect(response.status).toBe(422);
    expect(String(response.body.detail)).toContain(named);
    expect((await call(gw, 'GET', '/canvas/state')).body.count).toBe(0);
  });

  it('answers malformed JSON with 422 {detail} as every route does', async () => {
    const response = await call(gw, 'POST', '/canvas/render', '{"type": "markdown",');
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual(expect.any(String));
  });

  it('refuses a block over the block cap with 413, and a canvas past its caps with 413', async () => {
    const big = await call(gw, 'POST', '/canvas/render', {
      type: 'markdown',
      content: 'x'.repeat(9_000),
    });
    expect(big.status).toBe(413);
    expect(big.body.detail).toContain('at most 8192');
    for (let i = 0; i < 2; i += 1) {
      const r = await call(gw, 'POST', '/canvas/render', {
        type: 'code',
        content: 'y'.repeat(7_900),
      });
      expect(r.status).toBe(201);
    }
    const full = await call(gw, 'POST', '/canvas/render', {
      type: 'code',
      content: 'z'.repeat(7_900),
    });
    expect(full.status).toBe(413);
    expect(full.body.detail).toContain('20000 bytes');
    await call(gw, 'DELETE', '/canvas/clear');
    for (let i = 0; i < 6; i += 1)
      await call(gw, 'POST', '/canvas/render', { type: 'markdown', content: `${i}` });
    const many = await call(gw, 'POST', '/canvas/render', { type: 'markdown', content: 'seventh' });
    expect(many.status).toBe(413);
    expect(many.body.detail).toContain('at most 6 blocks');
    expect((await call(gw, 'GET', '/canvas/state')).body.count).toBe(6);
    await call(gw, 'DELETE', '/canvas/clear');
  });

  it('serves an html block as its own page under a CSP that blocks all egress', async () => {
    const html = await call(gw, 'POST', '/canvas/render', { type: 'html', content: '<b>hi</b>' });
    const md = await call(gw, 'POST', '/canvas/render', { type: 'markdown', content: 'hi' });
    const page = await fetch(`${gw.url}/canvas/frame/${String(html.body.id)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toBe(FRAME_CSP);
    for (const directive of [
      "default-src 'none'",
      "connect-src 'none'",
      "form-action 'none'",
      "frame-ancestors 'self'",
      "script-src 'none'",
    ]) {
      expect(FRAME_CSP).toContain(directive);
    }
    // A sandbox with no flag: no script (WebRTC), no same-origin access, no popups.
    expect(FRAME_CSP.split('; ')).toContain('sandbox');
    expect(FRAME_CSP).not.toContain('allow-');
    expect(await page.text()).toContain('<b>hi</b>');
    expect((await fetch(`${gw.url}/canvas/frame/${String(md.body.id)}`)).status).toBe(404);
    await call(gw, 'DELETE', '/canvas/clear');
  });

  it.each([
    '/canvas/frame/00000000-0000-4000-8000-000000000000',
    '/canvas/frame/../api/v1/canvas/state',
    '/canvas/frame/%2e%2e/api/v1/canvas/state',
    '/canvas/frame/not-a-uuid',
    '/canvas/frame//00000000-0000-4000-8000-000000000000',
  ])('answers %s with 404 {detail}', async (path) => {
    const response = await rawRequest(gw.port, path);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toHaveProperty('detail');
  });

  it('sends viewers the full state on connect, then add and clear, and counts them', async () => {
    const first = await call(gw, 'POST', '/canvas/render', { type: 'markdown', content: 'before' });
    const viewer = await canvasViewer(`ws://127.0.0.1:${gw.port}/ws/canvas`);
    expect(await viewer.next((f) => f.type === 'state')).toEqual({
      type: 'state',
      blocks: [first.body],
      count: 1,
    });
    expect((await call(gw, 'GET', '/canvas/status')).body.viewers).toBe(1);
    const added = await call(gw, 'POST', '/canvas/render', { type: 'code', content: 'after' });
    expect(await viewer.next((f) => f.type === 'add')).toEqual({ type: 'add', block: added.body });
    await call(gw, 'DELETE', '/canvas/clear');
    expect(await viewer.next((f) => f.type === 'clear')).toEqual({ type: 'clear' });
    viewer.send({ type: 'ping' });
    expect(await viewer.next((f) => f.type === 'pong')).toEqual({ type: 'pong' });
    viewer.send('{"type": "render", "content": "x"}');
    expect(await viewer.next((f) => f.type === 'error')).toMatchObject({
      detail: expect.any(String),
    });
    viewer.send('garbage');
    viewer.socket.close();
    await viewer.closed;
    await expect.poll(async () => (await call(gw, 'GET', '/canvas/status')).body.viewers).toBe(0);
  });

  it('closes a viewer from a foreign Origin with 1008', async () => {
    const viewer = await canvasViewer(`ws://127.0.0.1:${gw.port}/ws/canvas`, {
      headers: { origin: 'https://evil.example' },
    });
    expect((await viewer.closed).code).toBe(1008);
  });
});

describe('canvas with an API key', () => {
  let gw: TestGateway;
  const key = 'canvas-secret-key';
  beforeAll(async () => {
    gw = await startTestGateway({ config: { gateway: { api_key: key } } });
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it('needs the key on every route, and the frame page needs only the block id', async () => {
    expect((await call(gw, 'GET', '/canvas/state')).status).toBe(401);
    expect((await call(gw, 'POST', '/canvas/render', { type: 'html', content: 'x' })).status).toBe(
      401,
    );
    expect((await call(gw, 'DELETE', '/canvas/clear')).status).toBe(401);
    expect((await call(gw, 'GET', '/canvas/status')).status).toBe(401);
    const html = await call(
      gw,
      'POST',
      '/canvas/render',
      { type: 'html', content: '<i>k</i>' },
      key,
    );
    expect(html.status).toBe(201);
    const page = await fetch(`${gw.url}/canvas/frame/${String(html.body.id)}`);
    expect(page.status).toBe(200);
    // Only the exact frame path is public: nothing else under it, no other spelling.
    expect((await rawRequest(gw.port, `/canvas/frame/${String(html.body.id)}/x`)).status).toBe(401);
    expect((await rawRequest(gw.port, `/Canvas/frame/${String(html.body.id)}`)).status).toBe(401);
  });

  it('refuses /ws/canvas without the key (401) and accepts the key subprotocol', async () => {
    await expect(canvasViewer(`ws://127.0.0.1:${gw.port}/ws/canvas`)).rejects.toThrow(/401/);
    const viewer = await canvasViewer(`ws://127.0.0.1:${gw.port}/ws/canvas`, {
      protocols: [keyProtocol(key)],
    });
    expect((await viewer.next((f) => f.type === 'state')).count).toBe(1);
    expect(viewer.socket.protocol).toBe(keyProtocol(key));
    viewer.socket.close();
  });

  it('never takes a wrong key as a subprotocol', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${gw.port}/ws/canvas`, [keyProtocol('wrong')]);
    await expect(
      new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      }),
    ).rejects.toThrow(/401/);
  });
});
