import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEarlySettings } from './early-settings.ts';
import { configSchema } from './schema.ts';

describe('readEarlySettings: what the early listener needs, or nothing', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-early-settings-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const file = async (text: string) => {
    const path = join(dir, `${Math.random().toString(36).slice(2)}.toml`);
    await writeFile(path, text);
    return path;
  };
  const read = async (text: string, extra: { host?: string; port?: number } = {}, env = {}) =>
    readEarlySettings({ configPath: await file(text), env, ...extra });

  it('takes the schema’s defaults for a file without [gateway]', async () => {
    const defaults = configSchema.parse({}).gateway;
    expect(await read('# only comments\n')).toEqual({
      host: defaults.host,
      port: defaults.port,
      apiKey: defaults.api_key,
      corsOrigins: defaults.cors_origins,
      allowedHosts: defaults.allowed_hosts,
      allowUnauthenticated: defaults.allow_unauthenticated,
      channelsConfigured: false,
    });
  });

  it('reads [gateway] host and port; --bind and --port win over them', async () => {
    const text = '[gateway]\nhost = "127.0.0.2"\nport = 8123\n';
    expect(await read(text)).toMatchObject({ host: '127.0.0.2', port: 8123 });
    expect(await read(text, { host: '::1', port: 0 })).toMatchObject({ host: '::1', port: 0 });
  });

  it('resolves an ENV: key and reads the Host policy settings and the channels', async () => {
    const text = [
      '[gateway]',
      'api_key = "ENV:EARLY_KEY"',
      'cors_origins = ["https://app.example"]',
      'allowed_hosts = ["hearth.lan"]',
      '[channels.hook]',
      'type = "webhook"',
      '[channels.off]',
      'type = "webhook"',
      'enabled = false',
    ].join('\n');
    expect(await read(text, {}, { EARLY_KEY: 'k-123' })).toMatchObject({
      apiKey: 'k-123',
      corsOrigins: ['https://app.example'],
      allowedHosts: ['hearth.lan'],
      channelsConfigured: true,
    });
    expect(await read('[channels.off]\ntype = "webhook"\nenabled = false\n')).toMatchObject({
      channelsConfigured: false,
    });
  });

  it.each([
    ['a TOML syntax error', '[gateway\nport = 1\n', {}],
    ['a port of the wrong kind', '[gateway]\nport = "80"\n', {}],
    ['a port out of range', '[gateway]\nport = 70000\n', {}],
    ['an empty host', '[gateway]\nhost = ""\n', {}],
    ['a --port that is no port', '', { port: Number('x') }],
    ['an empty --bind', '', { host: '' }],
    ['[gateway] not a table', 'gateway = 1\n', {}],
    ['[channels] not a table', 'channels = 1\n', {}],
    [
      'an op:// key (resolved by a program, not read here)',
      '[gateway]\napi_key = "op://v/i/f"\n',
      {},
    ],
    ['an ENV: key whose variable is unset', '[gateway]\napi_key = "ENV:EARLY_UNSET"\n', {}],
    ['a cors origin that is no URL', '[gateway]\ncors_origins = ["nope"]\n', {}],
    ['allowed_hosts of the wrong kind', '[gateway]\nallowed_hosts = "x"\n', {}],
    ['allow_unauthenticated of the wrong kind', '[gateway]\nallow_unauthenticated = 1\n', {}],
  ])('gives nothing for %s (the real loader reports it)', async (_name, text, extra) => {
    expect(await read(text, extra)).toBeUndefined();
  });

  it('gives nothing for a missing or unreadable file', async () => {
    expect(await readEarlySettings({ configPath: join(dir, 'missing.toml'), env: {} })).toBe(
      undefined,
    );
    // A directory where the file should be: reading it fails (EISDIR), whoever runs this.
    expect(await readEarlySettings({ configPath: dir, env: {} })).toBeUndefined();
  });
});
