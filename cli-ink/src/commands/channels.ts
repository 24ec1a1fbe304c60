import {
  CHANNEL_TYPES,
  channelNameSchema,
  channelSchema,
  ensureStateDir,
  isSecretKey,
  setConfigTable,
  type ChannelType,
  type ConfigValue,
} from '@hearth/gateway/config';
import type { ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import { dirname } from 'node:path';
import { CliError } from '../cli-error.ts';
import { readRawConfig } from '../config-file.ts';
import type { CommandContext } from '../deps.ts';
import { GatewayHttpError, GatewayUnreachableError } from '../gateway-client.ts';
import { locateGateway } from '../locate-gateway.ts';
import { EXIT_USAGE } from '../usage-exit.ts';
import { printResult } from '../print-result.ts';

/** The fields `channels add` asks for, per network (secrets are read without echo). */
const FIELDS: Record<ChannelType, { key: string; prompt: string; optional?: boolean }[]> = {
  telegram: [{ key: 'bot_token', prompt: 'Bot token (from @BotFather)' }],
  whatsapp: [
    { key: 'phone_number_id', prompt: 'Phone number id' },
    { key: 'access_token', prompt: 'Access token' },
    { key: 'app_secret', prompt: 'App secret (checks X-Hub-Signature-256)' },
    { key: 'verify_token', prompt: 'Verify token (for the webhook handshake)' },
  ],
  matrix: [
    { key: 'homeserver_url', prompt: 'Homeserver URL (https://matrix.example.org)' },
    { key: 'user_id', prompt: "The bot account's Matrix id (@hearth:example.org)" },
    { key: 'access_token', prompt: "The bot account's access token" },
  ],
  signal: [
    { key: 'account', prompt: 'The signal-cli account number (+15551234567)' },
    {
      key: 'rpc_url',
      prompt: 'signal-cli daemon URL (empty: http://127.0.0.1:8080)',
      optional: true,
    },
  ],
  discord: [
    { key: 'bot_token', prompt: 'Bot token (Developer Portal → Bot; enable Message Content)' },
  ],
  slack: [
    { key: 'bot_token', prompt: 'Bot token (xoxb-…)' },
    { key: 'app_token', prompt: 'App-level token for Socket Mode (xapp-…, connections:write)' },
  ],
  email: [
    { key: 'address', prompt: "The agent's email address (From of replies)" },
    { key: 'imap_host', prompt: 'IMAP server (port 993, TLS)' },
    { key: 'smtp_host', prompt: 'SMTP server (port 465, TLS)' },
    { key: 'username', prompt: 'Login name' },
    { key: 'password_secret', prompt: 'Password (or ENV:NAME / op://…)' },
  ],
  webhook: [
    { key: 'signing_secret', prompt: 'Signing secret (HMAC-SHA256)' },
    { key: 'callback_url', prompt: 'Callback URL for replies (empty: none)', optional: true },
  ],
};

type Channel = ApiResponse<'/channels'>['channels'][number];
type Pairings = ApiResponse<'/channels/{name}/pairings'>;
type Paired = ApiResponse<'/channels/{name}/pairings/{code}/approve', 'POST'>;

/**
 * A row of `channels list`: a channel as GET /channels answers it, or one read from config.toml
 * when no gateway runs (its status then says 'not running', which the wire never does).
 */
type ListItem = Pick<Channel, 'name' | 'type' | 'unread' | 'messages_total'> & { status: string };

const CTRL_C = String.fromCharCode(3);

/**
 * Asks for fields one line at a time from the command's input; a secret from a terminal is read
 * in raw mode so it is never echoed. What arrives after a line (several answers piped in at
 * once) is kept for the next question; `close` releases the input.
 */
function createPrompter(ctx: CommandContext) {
  const input = ctx.deps.input as NodeJS.ReadStream;
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  let buffered = '';
  let ended = false;

  async function nextLine(): Promise<string> {
    for (;;) {
      const ends = ['\r', '\n', CTRL_C].map((c) => buffered.indexOf(c)).filter((i) => i !== -1);
      if (ends.length > 0) {
        const end = Math.min(...ends);
        if (buffered[end] === CTRL_C) throw new CliError('cancelled');
        const line = buffered.slice(0, end);
        buffered = buffered.slice(buffered.startsWith('\r\n', end) ? end + 2 : end + 1);
        return line.trim();
      }
      if (ended || buffered.length > 4096) {
        const line = buffered;
        buffered = '';
        return line.trim();
      }
      const next = await chunks.next();
      if (next.done) ended = true;
      else buffered += String(next.value);
    }
  }

  return {
    async ask(prompt: string, secret: boolean): Promise<string> {
      ctx.deps.promptOutput.write(`${prompt}: `);
      const raw = secret && input.isTTY === true && typeof input.setRawMode === 'function';
      if (raw) input.setRawMode(true);
      try {
        return await nextLine();
      } finally {
        if (raw) {
          input.setRawMode(false);
          ctx.deps.promptOutput.write('\n');
        }
      }
    },
    async close(): Promise<void> {
      await chunks.return?.();
    },
  };
}

/** `hearth channels list|add|remove|pair`. */
export function registerChannels(program: Command, ctx: CommandContext): void {
  const channels = program
    .command('channels')
    .description(
      'messaging channels (Telegram, WhatsApp, Discord, Slack, Matrix, Signal, webhooks)',
    );
  const out = (text: string) => ctx.deps.output.out(text);

  channels
    .command('list')
    .description('configured channels with their status (from the gateway, else config.toml)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      let items: ListItem[];
      try {
        const client = await locateGateway(ctx);
        items = ((await client.getJson('/api/v1/channels')) as ApiResponse<'/channels'>).channels;
      } catch (error) {
        if (error instanceof GatewayHttpError) throw new CliError(error.detail);
        if (!(error instanceof GatewayUnreachableError)) throw error;
        ctx.deps.output.err(`note: ${error.message}; listing config.toml.`);
        const config = await readRawConfig(ctx.configPath());
        items = Object.entries(config.channels).map(([name, channel]) => ({
          name,
          type: channel.type,
          status: channel.enabled ? 'not running' : 'disabled',
          unread: 0,
          messages_total: 0,
        }));
      }
      if (options.json) return out(JSON.stringify(items, null, 2));
      out(
        items.length === 0
          ? 'No channels are configured (add one with hearth channels add <name> --type telegram).'
          : items
              .map(
                (c) =>
                  `${c.name}  ${c.type}  ${c.status}  ${c.unread} unread / ${c.messages_total} messages`,
              )
              .join('\n'),
      );
    });

  channels
    .command('add <name>')
    .description('add a [channels.<name>] table to config.toml (asks for the needed fields)')
    .requiredOption('--type <type>', `network: ${CHANNEL_TYPES.join(', ')}`)
    .option('--set <key=value...>', 'a field without asking (e.g. --set bot_token=ENV:TG_TOKEN)')
    .option('--allow-from <ids...>', 'sender ids paired from the start')
    .option('--reply-mode <mode>', 'all, mention or dm_only')
    .option('--rate-limit <n>', 'messages per minute per chat')
    .option('--disabled', 'write it with enabled = false')
    .option('--json', 'print JSON')
    .action(
      async (
        name: string,
        options: {
          type: string;
          set?: string[];
          allowFrom?: string[];
          replyMode?: string;
          rateLimit?: string;
          disabled?: boolean;
          json?: boolean;
        },
      ) => {
        if (!channelNameSchema.safeParse(name).success)
          throw new CliError(
            `invalid channel name '${name}': 1 to 64 of a-z 0-9 _ - (not "webhook")`,
            EXIT_USAGE,
          );
        const type = CHANNEL_TYPES.find((t) => t === options.type);
        if (!type)
          throw new CliError(`--type must be one of ${CHANNEL_TYPES.join(', ')}`, EXIT_USAGE);
        const path = ctx.configPath();
        const config = await readRawConfig(path);
        if (config.channels[name]) throw new CliError(`channel '${name}' already exists`);
        const table: Record<string, ConfigValue> = { type };
        for (const pair of options.set ?? []) {
          const at = pair.indexOf('=');
          if (at <= 0) throw new CliError(`--set expects key=value, got '${pair}'`, EXIT_USAGE);
          table[pair.slice(0, at)] = pair.slice(at + 1);
        }
        const missing = FIELDS[type].filter((field) => table[field.key] === undefined);
        if (missing.length > 0) {
          const prompter = createPrompter(ctx);
          try {
            for (const field of missing) {
              const value = await prompter.ask(field.prompt, isSecretKey(field.key));
              if (value === '' && field.optional) continue;
              table[field.key] = value;
            }
          } finally {
            await prompter.close();
          }
        }
        if (options.allowFrom) table.allow_from = options.allowFrom;
        if (options.replyMode) table.reply_mode = options.replyMode;
        if (options.rateLimit) table.rate_limit_per_minute = Number(options.rateLimit);
        if (options.disabled) table.enabled = false;
        const checked = channelSchema.safeParse(table);
        if (!checked.success)
          throw new CliError(
            `channel '${name}': ${checked.error.issues.map((i) => `${i.path.join('.') || 'table'}: ${i.message}`).join('; ')}`,
          );
        if (dirname(path) === ctx.deps.env.home) await ensureStateDir(ctx.deps.env.home);
        await setConfigTable(path, 'channels', name, table);
        printResult(
          ctx.deps.output,
          options,
          { name, type, config: path, restart_needed: true },
          () => `Added channel ${name} (${type}) to ${path}. Restart the gateway to connect it.`,
        );
      },
    );

  channels
    .command('remove <name>')
    .description('remove a [channels.<name>] table from config.toml')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const path = ctx.configPath();
      const config = await readRawConfig(path);
      if (!config.channels[name]) throw new CliError(`no channel named '${name}' in ${path}`);
      await setConfigTable(path, 'channels', name, null);
      printResult(
        ctx.deps.output,
        options,
        { name, removed: true, config: path, restart_needed: true },
        () => `Removed channel ${name} from ${path}. Restart the gateway to disconnect it.`,
      );
    });

  channels
    .command('pair <code>')
    .description('approve a sender by the pairing code it was given')
    .option('--channel <name>', 'the channel (default: whichever has this code pending)')
    .option('--json', 'print JSON')
    .action(async (code: string, options: { channel?: string; json?: boolean }) => {
      const client = await locateGateway(ctx);
      try {
        let names = options.channel ? [options.channel] : [];
        if (names.length === 0) {
          const { channels: all } = (await client.getJson(
            '/api/v1/channels',
          )) as ApiResponse<'/channels'>;
          for (const channel of all) {
            const { pairings } = (await client.getJson(
              `/api/v1/channels/${encodeURIComponent(channel.name)}/pairings`,
            )) as Pairings;
            if (pairings.some((p) => p.code === code.toUpperCase())) names = [channel.name];
          }
          if (names.length === 0) throw new CliError(`no channel has pairing code ${code} pending`);
        }
        const channel = names[0] ?? '';
        const result = (await client.sendJson(
          'POST',
          `/api/v1/channels/${encodeURIComponent(channel)}/pairings/${encodeURIComponent(code)}/approve`,
        )) as Paired;
        printResult(
          ctx.deps.output,
          options,
          { channel, sender_id: result.sender_id },
          () => `Paired ${result.sender_id} on ${channel}.`,
        );
      } catch (error) {
        if (error instanceof GatewayHttpError) throw new CliError(error.detail);
        if (error instanceof GatewayUnreachableError)
          throw new CliError(`${error.message}; pairing needs the running gateway (hearth start).`);
        throw error;
      }
    });
}
