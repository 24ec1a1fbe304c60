import type { ApiResponse } from '@hearth/client';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as TOML from '@decimalturn/toml-patch';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { channelSchema } from '../../../gateway/src/config/schema.ts';
import { signedHeaders } from '../../../gateway/src/channels/webhook/signature.ts';
import {
  startTestGateway,
  type TestGateway,
} from '../../../gateway/src/testing/gateway/test-gateway.ts';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';

describe('hearth channels add|remove|list without a gateway', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${await freePort()}\n`);
  });
  afterEach(() => h.cleanup());

  it('add asks for the missing fields, never echoes a secret, and writes a valid table', async () => {
    const result = await h.run(
      [
        'channels',
        'add',
        'family',
        '--type',
        'telegram',
        '--allow-from',
        '42',
        '--reply-mode',
        'all',
      ],
      {},
      ['123456:very-secret-token\n'],
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Added channel family (telegram)');
    expect(result.stdout + result.stderr).not.toContain('very-secret-token');
    const written = TOML.parse(await readFile(join(h.home, 'config.toml'), 'utf8')) as {
      channels: Record<string, unknown>;
    };
    expect(written.channels.family).toEqual({
      type: 'telegram',
      bot_token: '123456:very-secret-token',
      allow_from: ['42'],
      reply_mode: 'all',
    });

    const listed = await h.run(['channels', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: 'family', type: 'telegram', status: 'not running', unread: 0, messages_total: 0 },
    ]);
    expect(await h.run(['channels', 'remove', 'family'])).toMatchObject({ code: 0 });
    expect(TOML.parse(await readFile(join(h.home, 'config.toml'), 'utf8'))).not.toHaveProperty(
      'channels.family',
    );
  });

  it('add --type slack asks for both tokens and --type discord for its bot token, echoing neither', async () => {
    const slack = await h.run(['channels', 'add', 'work', '--type', 'slack'], {}, [
      'xoxb-secret-bot\n',
      'xapp-secret-app\n',
    ]);
    expect(slack.code).toBe(0);
    const discord = await h.run(['channels', 'add', 'guild', '--type', 'discord'], {}, [
      'discord.secret.token\n',
    ]);
    expect(discord.code).toBe(0);
    const output = slack.stdout + slack.stderr + discord.stdout + discord.stderr;
    for (const secret of ['xoxb-secret-bot', 'xapp-secret-app', 'discord.secret.token'])
      expect(output).not.toContain(secret);
    const written = TOML.parse(await readFile(join(h.home, 'config.toml'), 'utf8')) as {
      channels: Record<string, unknown>;
    };
    expect(written.channels.work).toEqual({
      type: 'slack',
      bot_token: 'xoxb-secret-bot',
      app_token: 'xapp-secret-app',
    });
    expect(written.channels.guild).toEqual({ type: 'discord', bot_token: 'discord.secret.token' });
  });

  it('add --type email takes the address, servers and login, and asks for the password (never echoed)', async () => {
    const result = await h.run(
      [
        'channels',
        'add',
        'mail',
        '--type',
        'email',
        '--allow-from',
        'me@example.org',
        '--set',
        'address=agent@example.org',
        '--set',
        'imap_host=imap.example.org',
        '--set',
        'smtp_host=smtp.example.org',
        '--set',
        'username=agent@example.org',
      ],
      {},
      ['mail-password-very-secret\n'],
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Added channel mail (email)');
    expect(result.stdout + result.stderr).not.toContain('mail-password-very-secret');
    const written = TOML.parse(await readFile(join(h.home, 'config.toml'), 'utf8')) as {
      channels: Record<string, unknown>;
    };
    expect(written.channels.mail).toEqual({
      type: 'email',
      address: 'agent@example.org',
      imap_host: 'imap.example.org',
      smtp_host: 'smtp.example.org',
      username: 'agent@example.org',
      password_secret: 'mail-password-very-secret',
      allow_from: ['me@example.org'],
    });
    expect(channelSchema.parse(written.channels.mail)).toMatchObject({
      imap_port: 993,
      smtp_port: 465,
      mailbox: 'INBOX',
    });
  });

  it('non-interactive flags, and clear errors (exit 1) for bad names, types and fields', async () => {
    const ok = await h.run([
      'channels',
      'add',
      'hooks',
      '--type',
      'webhook',
      '--set',
      'signing_secret=ENV:HOOK_SECRET',
      '--set',
      'callback_url=https://example.org/hook',
    ]);
    expect(ok.code).toBe(0);
    expect((await h.run(['channels', 'add', 'hooks', '--type', 'webhook'])).stderr).toContain(
      "channel 'hooks' already exists",
    );
    // A bad name is a usage error (2); a table the schema refuses is a failure (1).
    expect((await h.run(['channels', 'add', 'webhook', '--type', 'webhook'])).code).toBe(2);
    expect((await h.run(['channels', 'add', 'x', '--type', 'irc'])).stderr).toContain('--type');
    const bad = await h.run([
      'channels',
      'add',
      'wa',
      '--type',
      'whatsapp',
      '--set',
      'phone_number_id=abc',
      '--set',
      'access_token=a',
      '--set',
      'app_secret=b',
      '--set',
      'verify_token=c',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('phone_number_id');
    expect((await h.run(['channels', 'remove', 'nope'])).code).toBe(1);
  });
});

describe('hearth channels with a running gateway', () => {
  const SECRET = 'cli-test-secret';
  let h: Harness;
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({
      config: {
        channels: { hooks: channelSchema.parse({ type: 'webhook', signing_secret: SECRET }) },
      },
    });
    await t.gateway.whenReady();
    // The channel connects after start-up (it never holds start-up up): wait for it.
    await vi.waitFor(
      async () => {
        const res = await fetch(`${t.url}/api/v1/channels/hooks`);
        expect(((await res.json()) as ApiResponse<'/channels/{name}'>).status).toBe('connected');
      },
      { timeout: 30_000, interval: 100 },
    );
    h = await createHarness();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${t.port}\n`);
  }, 60_000);
  afterAll(async () => {
    await h.cleanup();
    await t.close();
  });

  it('list shows the live status; pair approves a stranger’s code found on any channel', async () => {
    const listed = await h.run(['channels', 'list']);
    expect(listed.stdout).toContain('hooks  webhook  connected');
    const body = JSON.stringify({ sender: 'stranger-9', text: 'hi' });
    const res = await fetch(`${t.url}/api/v1/channels/webhook/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, Date.now(), body) },
      body,
    });
    expect(res.status).toBe(200);
    const { pairings } = (await (
      await fetch(`${t.url}/api/v1/channels/hooks/pairings`)
    ).json()) as ApiResponse<'/channels/{name}/pairings'>;
    const code = pairings[0]?.code ?? '';
    expect(await h.run(['channels', 'pair', code.toLowerCase()])).toEqual({
      code: 0,
      stdout: 'Paired stranger-9 on hooks.\n',
      stderr: '',
    });
    const again = await h.run(['channels', 'pair', code]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no channel has pairing code ${code} pending`);
  });
});
