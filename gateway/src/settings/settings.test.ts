import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEnvironment } from '../config/environment.ts';
import { runGateway } from '../run.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

const SECRET = 'sk-ant-THIS-MUST-NEVER-BE-RETURNED';

async function post(gw: TestGateway, path: string, body: unknown) {
  const res = await fetch(`${gw.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

describe('settings', () => {
  const open: TestGateway[] = [];
  const start = async (options: Parameters<typeof startTestGateway>[0] = {}) => {
    const gw = await startTestGateway(options);
    open.push(gw);
    await gw.gateway.whenReady();
    return gw;
  };
  afterEach(async () => {
    const closing = open.splice(0);
    for (const gw of closing) await gw.gateway.close();
    // Restarts share a home: every gateway is stopped before any home goes.
    for (const gw of closing) await rm(gw.home, { recursive: true, force: true });
  });

  describe('POST /settings/llm', () => {
    it('persists into [models] of config.toml (0600, comments kept) and survives a restart', async () => {
      const gw = await start();
      const configPath = join(gw.home, 'config.toml');
      await writeFile(configPath, '# my comment\n[models]\nprimary = "claude-sonnet-4-5"\n');
      const res = await post(gw, '/settings/llm', {
        anthropic_api_key: SECRET,
        web_search_enabled: true,
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({
        applied: true,
        updated_fields: ['anthropic_api_key', 'web_search_enabled'],
      });
      expect(res.text).not.toContain(SECRET);

      const text = await readFile(configPath, 'utf8');
      expect(text).toContain('# my comment');
      expect(text).toContain(`anthropic_api_key = "${SECRET}"`);
      expect((await stat(configPath)).mode & 0o777).toBe(0o600);

      // Applied live: the provider reports configured without a restart.
      const live = (await (await fetch(`${gw.url}/api/v1/models`)).json()) as {
        providers: { provider: string; configured: boolean }[];
      };
      expect(live.providers.find((p) => p.provider === 'anthropic')?.configured).toBe(true);

      // A real restart on the same state directory reads it back from the file.
      await gw.gateway.close();
      const again = await runGateway({
        env: readEnvironment({ HEARTH_HOME: gw.home, HEARTH_LOG_LEVEL: 'silent' }),
        port: 0,
        pretty: false,
      });
      try {
        await again.gateway.whenReady();
        const after = (await (await fetch(`${again.address.url}/api/v1/models`)).json()) as {
          providers: { provider: string; configured: boolean }[];
          routing: { primary: string };
        };
        expect(after.providers.find((p) => p.provider === 'anthropic')?.configured).toBe(true);
        expect(after.routing.primary).toBe('claude-sonnet-4-5');
      } finally {
        await again.stop();
        await rm(gw.home, { recursive: true, force: true });
      }
    });

    it.each([
      [{}, /at least one field/],
      [{ nope_api_key: 'x' }, /unknown field\(s\) nope_api_key/],
      [{ ollama_base_url: 'not a url' }, /body\.ollama_base_url/],
      [{ web_search_enabled: 'yes' }, /body\.web_search_enabled/],
      [{ ollama_base_url: 'file:///etc/passwd' }, /body\.ollama_base_url: an http/],
      [{ groq_api_key: 'ENV:HOME' }, /body\.groq_api_key: ENV: and op:\/\/ references/],
    ])('rejects %j with 422 and writes nothing', async (body, detail) => {
      const gw = await start();
      const res = await post(gw, '/settings/llm', body);
      expect(res.status).toBe(422);
      expect(JSON.parse(res.text).detail).toMatch(detail);
      await expect(stat(join(gw.home, 'config.toml'))).rejects.toThrow();
    });
  });

  describe('POST /settings/model', () => {
    it('sets provider (by alias), thinking and privacy mode at run time', async () => {
      const gw = await start();
      const res = await post(gw, '/settings/model', {
        provider: 'claude',
        thinking: 'high',
        privacy_mode: true,
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({
        applied: true,
        settings: { provider: 'anthropic', model: null, thinking: 'high', privacy_mode: true },
      });
      const restore = await post(gw, '/settings/model', { provider: null });
      expect(JSON.parse(restore.text).settings.provider).toBeNull();
    });

    it.each([
      [{}, 'body: at least one of provider, model, thinking, privacy_mode is required'],
      [{ provider: 'skynet' }, "body.provider: unknown provider 'skynet'"],
      [
        { thinking: 'extreme' },
        'body.thinking: must be one of off, low, medium, high, xhigh, max or null',
      ],
      [{ model: 'mystery-model' }, "body.model: no provider for model id 'mystery-model'"],
    ])('rejects %j with 422', async (body, detail) => {
      const gw = await start();
      const res = await post(gw, '/settings/model', body);
      expect(res.status).toBe(422);
      expect(JSON.parse(res.text)).toEqual({ detail });
    });

    it('is runtime-only: a new gateway starts with automatic routing and privacy off', async () => {
      const gw = await start();
      await post(gw, '/settings/model', { provider: 'openai', privacy_mode: true });
      const fresh = await start({ home: gw.home });
      const settings = (await (await fetch(`${fresh.url}/api/v1/settings`)).json()) as {
        runtime: unknown;
      };
      expect(settings.runtime).toEqual({
        provider: null,
        model: null,
        thinking: null,
        privacy_mode: false,
      });
    });
  });

  it('POST /settings/privacy toggles privacy mode (form B)', async () => {
    const gw = await start();
    const res = await post(gw, '/settings/privacy', { enabled: true });
    expect(JSON.parse(res.text)).toMatchObject({ applied: true, privacy_mode: true });
    expect(gw.gateway.router.settings.privacyMode).toBe(true);
  });

  it('never returns a secret from any read', async () => {
    const gw = await start({
      config: { gateway: { api_key: 'gateway-key-SECRET' }, models: { openai_api_key: SECRET } },
    });
    const headers = { 'x-api-key': 'gateway-key-SECRET' };
    const paths = [
      '/api/v1/settings',
      '/api/v1/models',
      '/api/v1/models?live=true',
      '/api/v1/status',
      '/api/v1/usage',
      '/api/v1/metrics',
      '/api/v1/metrics/snapshot',
      '/openapi.json',
    ];
    for (const path of paths) {
      const text = await (await fetch(`${gw.url}${path}`, { headers })).text();
      expect(text, path).not.toContain(SECRET);
      expect(text, path).not.toContain('gateway-key-SECRET');
    }
    const settings = (await (await fetch(`${gw.url}/api/v1/settings`, { headers })).json()) as {
      models: Record<string, unknown>;
    };
    expect(settings.models.openai_api_key_set).toBe(true);
    expect(settings.models.anthropic_api_key_set).toBe(false);
    expect(settings.models).not.toHaveProperty('openai_api_key');
  });
});
