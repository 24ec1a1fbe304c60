import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as TOML from '@decimalturn/toml-patch';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';

describe('hearth channels add --type matrix|signal', () => {
  let h: Harness;
  const written = async () =>
    (
      TOML.parse(await readFile(join(h.home, 'config.toml'), 'utf8')) as {
        channels: Record<string, unknown>;
      }
    ).channels;

  beforeEach(async () => {
    h = await createHarness();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${await freePort()}\n`);
  });
  afterEach(() => h.cleanup());

  it('matrix asks for the homeserver, the bot’s id and its token, and never echoes the token', async () => {
    const result = await h.run(
      ['channels', 'add', 'home', '--type', 'matrix', '--allow-from', '@me:example.org'],
      {},
      ['https://matrix.example.org\n', '@hearth:example.org\n', 'syt_very_secret_token\n'],
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Added channel home (matrix)');
    expect(result.stdout + result.stderr).not.toContain('syt_very_secret_token');
    expect((await written()).home).toEqual({
      type: 'matrix',
      homeserver_url: 'https://matrix.example.org',
      user_id: '@hearth:example.org',
      access_token: 'syt_very_secret_token',
      allow_from: ['@me:example.org'],
    });
  });

  it('signal asks for the account; an empty daemon URL keeps the default', async () => {
    const result = await h.run(['channels', 'add', 'phone', '--type', 'signal'], {}, [
      '+15551234567\n',
      '\n',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((await written()).phone).toEqual({ type: 'signal', account: '+15551234567' });
  });

  it('refuses a malformed Matrix id, Signal number or homeserver URL with exit 1', async () => {
    const matrix = (set: string[]) =>
      h.run(['channels', 'add', 'm', '--type', 'matrix', ...set.flatMap((s) => ['--set', s])]);
    const badId = await matrix([
      'homeserver_url=https://matrix.example.org',
      'user_id=hearth',
      'access_token=ENV:MX_TOKEN',
    ]);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toContain('user_id');
    const badUrl = await matrix([
      'homeserver_url=file:///etc/passwd',
      'user_id=@hearth:example.org',
      'access_token=x',
    ]);
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain('homeserver_url');
    const badNumber = await h.run([
      'channels',
      'add',
      's',
      '--type',
      'signal',
      '--set',
      'account=5551234567; rm -rf /',
    ]);
    expect(badNumber.code).toBe(1);
    expect(badNumber.stderr).toContain('account');
    expect(await readFile(join(h.home, 'config.toml'), 'utf8')).not.toContain('[channels');
  });
});
