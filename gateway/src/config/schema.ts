import { z } from 'zod';

/** Providers whose credential is a single `<provider>_api_key` field under `[models]`. */
export const KEY_PROVIDERS = [
  'anthropic',
  'openai',
  'google',
  'mistral',
  'xai',
  'deepseek',
  'cohere',
  'groq',
  'together',
  'fireworks',
  'perplexity',
  'openrouter',
  'moonshot',
  'zhipu',
  'qwen',
] as const;

const apiKeyFields = Object.fromEntries(
  KEY_PROVIDERS.map((name) => [`${name}_api_key`, z.string().default('')]),
) as Record<`${(typeof KEY_PROVIDERS)[number]}_api_key`, z.ZodDefault<z.ZodString>>;

const port = z.number().int().min(0).max(65_535);

export const gatewaySection = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: port.default(7432),
  api_key: z.string().default(''),
  /**
   * The key gateways sharing `[memory] cache_url` authenticate what they put on Redis with
   * (the same value on every gateway, never given to clients); without it they do not trust
   * one another (scale-out/bus-seal.ts).
   */
  cluster_secret: z.string().default(''),
  allow_unauthenticated: z.boolean().default(false),
  cors_origins: z.array(z.url()).default([]),
  allowed_hosts: z
    .array(
      z
        .string()
        .max(253)
        .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?)$/, {
          message: 'must be a host name or IP address, without scheme or port',
        }),
    )
    .default([]),
  body_limit_bytes: z.number().int().positive().default(1_048_576),
  shutdown_timeout_ms: z.number().int().positive().default(5_000),
  session_idle_timeout_minutes: z.number().positive().default(30),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export const modelsSection = z.strictObject({
  primary: z.string().default('ollama/llama3.2'),
  fallback: z.string().default(''),
  fast: z.string().default(''),
  local: z.string().default('ollama/llama3.2'),
  ...apiKeyFields,
  azure_api_key: z.string().default(''),
  azure_endpoint: z.string().default(''),
  bedrock_region: z.string().default(''),
  ollama_base_url: z.url().default('http://127.0.0.1:11434'),
  openai_compatible_base_url: z.string().default(''),
  openai_compatible_api_key: z.string().default(''),
  web_search_enabled: z.boolean().default(false),
  pull_local_model: z.boolean().default(false),
});

export const memorySection = z
  .strictObject({
    short_term_ttl: z.number().int().positive().default(3600),
    /** Largest turn (UTF-8 bytes) the short-term cache takes; a larger one is left out of it. */
    short_term_max_item_bytes: z.number().int().min(1_024).max(16_777_216).default(65_536),
    /**
     * Bytes the in-process short-term cache holds in all; over it the least recently written
     * sessions lose their oldest turns.
     */
    short_term_max_bytes: z.number().int().min(65_536).max(4_294_967_296).default(33_554_432),
    /** Days a long-term memory is kept after it was created; 0 keeps memories forever. */
    long_term_days: z.number().int().min(0).default(90),
    cache_url: z.string().default(''),
    /** The Redis password (AUTH) for `cache_url` when the URL carries none. */
    cache_password_secret: z.string().default(''),
    vector_store_url: z.string().default(''),
    db_path: z.string().default(''),
  })
  .refine((memory) => memory.short_term_max_item_bytes <= memory.short_term_max_bytes, {
    message: 'short_term_max_item_bytes must not be larger than short_term_max_bytes',
    path: ['short_term_max_item_bytes'],
  });

export const securitySection = z.strictObject({
  require_shell_approval: z.boolean().default(true),
  security: z.enum(['deny', 'allowlist', 'full']).default('allowlist'),
  ask: z.enum(['off', 'on-miss', 'always']).default('on-miss'),
  /**
   * While a turn's context holds untrusted content (a web page, an MCP server's or a skill's
   * result, fetched shell output, a stranger's message, an untrusted memory): `prompt` asks the
   * owner even for a command the allowlist would auto-approve; `trust` does not.
   */
  untrusted_content: z.enum(['prompt', 'trust']).default('prompt'),
  executor: z.enum(['local', 'sandbox']).default('local'),
  sandbox_url: z.union([z.url(), z.literal('')]).default(''),
  sandbox_token: z.string().default(''),
  /**
   * The privacy audit exempts the configured local runtime and vector store when they resolve
   * to loopback; with this, also when they resolve only to private addresses (the own stack).
   */
  trust_private_services: z.boolean().default(false),
  /**
   * Hub downloads go only to hosts whose every address is public unicast; with this, also to
   * loopback, private, link-local and carrier-grade NAT addresses (a package server on the LAN).
   */
  hub_allow_private_hosts: z.boolean().default(false),
  terminal: z.enum(['auto', 'on', 'off']).default('auto'),
});

/** `[tools]`: which installed tools each chat turn offers the model. */
export const toolsSection = z.strictObject({
  /**
   * `relevant`: Hearth's own tools, plus the installed tools relevant to the message and the
   * recent turns (and whatever `find_tool` finds); `all`: every installed tool, every turn.
   */
  selection: z.enum(['relevant', 'all']).default('relevant'),
  /** Installed tools offered at most per turn beyond Hearth's own, by relevance. */
  max_offered: z.number().int().min(0).max(64).default(8),
});

export const voiceSection = z.strictObject({
  stt: z.string().default('whisper'),
  stt_model: z.string().default('base'),
  stt_device: z.string().default('cpu'),
  tts_engine: z.string().default('auto'),
  wake_word: z.string().default('hey hearth'),
  wake_word_threshold: z.number().min(0).max(1).default(0.5),
  /**
   * An openWakeWord classifier: a name in `{models}/openwakeword/` or an absolute path to its
   * `.onnx` (with `melspectrogram.onnx` and `embedding_model.onnx` beside it). Empty: phrase
   * spotting on STT.
   */
  wake_word_model: z.string().max(4096).default(''),
});

/** An external MCP server's name: its tools join the registry as `<name>__<tool>`. */
export const MCP_SERVER_NAME = /^[A-Za-z][A-Za-z0-9-]{0,31}$/;

/**
 * One `[[mcp.servers]]` entry: a stdio server (`command`, `args`, `env`) or a Streamable HTTP
 * one (`url`), switched by `enabled`, its tools optionally limited to the `tools` allow-list.
 */
export const mcpServerEntry = z
  .strictObject({
    name: z.string().regex(MCP_SERVER_NAME, {
      message: 'must be 1 to 32 letters, digits and -, starting with a letter',
    }),
    command: z.string().min(1).max(4_096).optional(),
    args: z.array(z.string().max(4_096)).max(100).default([]),
    env: z
      .record(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, { message: 'must be a variable name' }),
        z.string().max(32_768),
      )
      .default({}),
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http: or https: URL' })
      .max(2_048)
      .optional(),
    enabled: z.boolean().default(true),
    /** Only these tools of the server join the registry; all of them when absent. */
    tools: z.array(z.string().min(1).max(128)).max(500).optional(),
  })
  .refine((entry) => (entry.command === undefined) !== (entry.url === undefined), {
    message: 'needs exactly one of command (stdio) or url (Streamable HTTP)',
  });

export type McpServerEntry = z.infer<typeof mcpServerEntry>;

export const mcpSection = z.strictObject({
  servers: z
    .array(mcpServerEntry)
    .max(64)
    .default([])
    .refine((servers) => new Set(servers.map((s) => s.name)).size === servers.length, {
      message: 'server names must be unique',
    }),
  /** Tools one external server may bring (after its `tools` allow-list); more: refused. */
  max_tools_per_server: z.number().int().min(1).max(10_000).default(128),
  /** Longest description (or title, or a parameter's description) of an external tool. */
  max_description_chars: z.number().int().min(1_024).max(1_048_576).default(8_192),
  /** Largest input or output schema of an external tool, as JSON. */
  max_schema_bytes: z.number().int().min(1_024).max(16_777_216).default(16_384),
  /** Deepest nesting of an external tool's schema (objects and arrays). */
  max_schema_depth: z.number().int().min(2).max(1_000).default(32),
  /** Largest message an external server may send: a stdio line, an HTTP answer, an SSE event. */
  max_message_bytes: z.number().int().min(65_536).max(268_435_456).default(4_194_304),
  /** How long checking one tool call's arguments (or a result) against a schema may take. */
  schema_check_timeout_ms: z.number().int().min(10).max(600_000).default(2_000),
});

export const canvasSection = z.strictObject({
  max_block_bytes: z.number().int().positive().default(262_144),
  max_canvas_bytes: z.number().int().positive().default(4_194_304),
  max_blocks: z.number().int().positive().default(200),
});

export const skillsSection = z.strictObject({
  /**
   * Seconds a skill host may sit unused before it is stopped (restarted on the next call;
   * a Plugin instance's in-memory state is lost); 0 keeps hosts running.
   */
  host_idle_seconds: z.number().int().min(0).max(86_400).default(300),
  /**
   * Where skill hosts run: `local` (this machine, inside bubblewrap; refused where bubblewrap
   * cannot build a sandbox), `sidecar` (the sandbox-executor sidecar at `sidecar_url`), or
   * `auto`: the sidecar at `[security] sandbox_url` when `executor = "sandbox"`, else local.
   */
  host: z.enum(['auto', 'local', 'sidecar']).default('auto'),
  /** `http://host:port` or `unix:/path/to/sandbox.sock`; empty: `[security] sandbox_url`. */
  sidecar_url: z
    .union([z.url({ protocol: /^https?$/ }), z.string().regex(/^unix:\/\S+$/), z.literal('')])
    .default(''),
  /** The sidecar's SANDBOX_TOKEN; empty: `[security] sandbox_token`. */
  sidecar_token: z.string().default(''),
  /** Resident memory of one skill host (MB); over it the host is stopped. */
  host_memory_mb: z.number().int().min(32).max(65_536).default(256),
  /** CPU seconds one skill host may use over its life (RLIMIT_CPU). */
  host_cpu_seconds: z.number().int().min(1).max(86_400).default(600),
  /** Open files of one skill host (RLIMIT_NOFILE). */
  host_max_files: z.number().int().min(16).max(65_536).default(256),
  /** The largest file a skill may write (MB, RLIMIT_FSIZE). */
  host_max_file_mb: z.number().int().min(1).max(65_536).default(64),
  /** Threads (and processes) of one skill host; over it the host is stopped. */
  host_max_threads: z.number().int().min(16).max(4096).default(64),
  /** Total size of a skill's data folder (MB); over it the host is stopped and not started. */
  data_quota_mb: z.number().int().min(1).max(1_048_576).default(256),
});

/** Most group messages a turn may quote (`group_context`). */
export const MAX_GROUP_CONTEXT = 50;

/** How a channel answers in group chats: every message, only when mentioned, or never. */
export const REPLY_MODES = ['all', 'mention', 'dm_only'] as const;

/** What every `[channels.<name>]` table has, whatever the network. */
const channelCommon = {
  enabled: z.boolean().default(true),
  /** Group chats: `mention` answers only when the bot is mentioned; direct messages always. */
  reply_mode: z.enum(REPLY_MODES).default('mention'),
  /** Messages per minute one chat may send before it gets one polite notice (token bucket). */
  rate_limit_per_minute: z.number().int().min(1).max(10_000).default(20),
  /** Sender ids that are paired from the start (everyone else needs a pairing code). */
  allow_from: z.array(z.string().min(1).max(200)).max(1_000).default([]),
  /**
   * Group chats: how many of the group's latest messages from other members a paired member's
   * turn quotes as context (0: none). A stranger's among them makes the turn untrusted.
   */
  group_context: z.number().int().min(0).max(MAX_GROUP_CONTEXT).default(0),
};

const httpUrl = z.url({ protocol: /^https?$/ });

/** The generic webhook channel: signed JSON in, replies POSTed (signed) to `callback_url`. */
export const webhookChannel = z.strictObject({
  type: z.literal('webhook'),
  ...channelCommon,
  signing_secret: z.string().min(1),
  callback_url: z.union([httpUrl, z.literal('')]).default(''),
  replay_window_seconds: z.number().int().min(1).max(3_600).default(300),
});

/** How a Telegram channel receives: long polling, or the Bot API POSTing to our webhook route. */
export const TELEGRAM_MODES = ['polling', 'webhook'] as const;

/** Telegram over the Bot API (long polling, or a webhook the Bot API calls). */
export const telegramChannel = z
  .strictObject({
    type: z.literal('telegram'),
    ...channelCommon,
    bot_token: z.string().min(1),
    api_root: httpUrl.default('https://api.telegram.org'),
    mode: z.enum(TELEGRAM_MODES).default('polling'),
    /** webhook mode: the public URL of `/api/v1/channels/webhook/<name>`. */
    webhook_url: z.union([z.url({ protocol: /^https$/ }), z.literal('')]).default(''),
    /** webhook mode: sent back by Telegram in `X-Telegram-Bot-Api-Secret-Token` (1-256 of A-Z a-z 0-9 _ -). */
    secret_token: z.string().max(300).default(''),
    /** The largest Bot API answer read (getUpdates, sendMessage…); past it the call fails. */
    max_answer_bytes: z.number().int().min(65_536).max(268_435_456).default(8_388_608),
  })
  .refine((c) => c.mode !== 'webhook' || (c.webhook_url !== '' && c.secret_token !== ''), {
    message: 'mode "webhook" needs webhook_url (https) and secret_token',
  });

/** WhatsApp Cloud API: signed webhooks in, Graph API out. */
export const whatsappChannel = z.strictObject({
  type: z.literal('whatsapp'),
  ...channelCommon,
  access_token: z.string().min(1),
  app_secret: z.string().min(1),
  verify_token: z.string().min(1),
  phone_number_id: z
    .string()
    .regex(/^\d{1,32}$/, { message: 'must be the numeric phone number id' }),
  graph_api_url: httpUrl.default('https://graph.facebook.com/v21.0'),
});

/** Matrix over the client-server API (a `/sync` long poll as the bot's account). */
export const matrixChannel = z.strictObject({
  type: z.literal('matrix'),
  ...channelCommon,
  homeserver_url: httpUrl,
  access_token: z.string().min(1),
  user_id: z.string().regex(/^@[^:\s]+:\S+$/, {
    message: "must be the bot account's Matrix id, like @hearth:example.org",
  }),
});

/** Signal through a signal-cli daemon the user runs (`--http`: JSON-RPC and SSE events). */
export const signalChannel = z.strictObject({
  type: z.literal('signal'),
  ...channelCommon,
  rpc_url: httpUrl.default('http://127.0.0.1:8080'),
  account: z
    .string()
    .regex(/^\+[1-9]\d{5,14}$/, { message: 'must be the registered number, like +15551234567' }),
});

/** Discord through its gateway WebSocket (Message Content intent) and REST API. */
export const discordChannel = z.strictObject({
  type: z.literal('discord'),
  ...channelCommon,
  bot_token: z.string().min(1),
  /** The REST API base; the gateway WebSocket URL comes from its `GET /gateway/bot`. */
  rest_api_url: httpUrl.default('https://discord.com/api'),
  /** The largest gateway WebSocket frame taken; a larger one closes the connection. */
  max_frame_bytes: z.number().int().min(65_536).max(104_857_600).default(8_388_608),
});

/** Slack in Socket Mode: events over a WebSocket opened with the app-level token. */
export const slackChannel = z.strictObject({
  type: z.literal('slack'),
  ...channelCommon,
  /** The bot token (`xoxb-…`) that posts messages. */
  bot_token: z.string().min(1),
  /** The app-level token (`xapp-…`, scope `connections:write`) that opens Socket Mode. */
  app_token: z.string().min(1),
  web_api_url: httpUrl.default('https://slack.com/api/'),
});

/** How a mail connection is secured: TLS from the start, upgraded by STARTTLS, or none. */
export const MAIL_TLS_MODES = ['tls', 'starttls', 'none'] as const;

/**
 * How an email channel knows a mail's From is true: `dkim` needs a passing DKIM signature of the
 * From's domain (relaxed alignment, as DMARC); `off` trusts the From header as written.
 */
export const SENDER_VERIFICATIONS = ['dkim', 'off'] as const;

/** Email: IMAP in (IDLE, polling where the server has no IDLE), SMTP out. */
export const emailChannel = z.strictObject({
  type: z.literal('email'),
  ...channelCommon,
  imap_host: z.string().min(1),
  imap_port: z.number().int().min(1).max(65_535).default(993),
  imap_tls: z.enum(MAIL_TLS_MODES).default('tls'),
  smtp_host: z.string().min(1),
  smtp_port: z.number().int().min(1).max(65_535).default(465),
  smtp_tls: z.enum(MAIL_TLS_MODES).default('tls'),
  /**
   * A PEM file of the CA(s) that sign the mail servers' certificates (a private CA), read at
   * connect and trusted besides the system's; certificates are always checked. Empty: the
   * system's trust store only.
   */
  tls_ca_file: z.string().max(4_096).default(''),
  /** The IMAP (and SMTP, where the server asks) login. */
  username: z.string().min(1),
  password_secret: z.string().min(1),
  /** The agent's own address: the From of every reply. */
  address: z.email(),
  mailbox: z.string().min(1).max(200).default('INBOX'),
  /** Larger mails are refused unread (marked seen, counted). */
  max_message_bytes: z.number().int().min(1_024).max(52_428_800).default(1_048_576),
  /** Mail whose sender this cannot verify is refused (flagged seen, counted, never answered). */
  verify_sender: z.enum(SENDER_VERIFICATIONS).default('dkim'),
});

export const channelSchema = z.discriminatedUnion('type', [
  webhookChannel,
  telegramChannel,
  whatsappChannel,
  matrixChannel,
  signalChannel,
  discordChannel,
  slackChannel,
  emailChannel,
]);
export type ChannelConfig = z.infer<typeof channelSchema>;
export type ChannelType = ChannelConfig['type'];
export const CHANNEL_TYPES = [
  'webhook',
  'telegram',
  'whatsapp',
  'matrix',
  'signal',
  'discord',
  'slack',
  'email',
] as const satisfies readonly ChannelType[];

/** A channel's name: the `<name>` of `[channels.<name>]`, also a URL path segment. */
export const channelNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
    message: 'must be 1 to 64 characters: lower-case letters, digits, _ and -',
  })
  // `/channels/webhook/{name}` is where signed webhooks arrive, so no channel is called so.
  .refine((name) => name !== 'webhook', { message: 'must not be "webhook" (a reserved word)' });

/**
 * The whole `config.toml`. Every section and key has a default: an empty file is valid. A missing
 * section is parsed from `{}` when a file is read (`prefault`), not once when this module loads:
 * nine parses at import, each compiling zod's parser for its section, took ~10 % of this module's
 * load time, which every start pays before `/ready`.
 */
export const configSchema = z.strictObject({
  gateway: gatewaySection.prefault({}),
  models: modelsSection.prefault({}),
  memory: memorySection.prefault({}),
  security: securitySection.prefault({}),
  voice: voiceSection.prefault({}),
  tools: toolsSection.prefault({}),
  mcp: mcpSection.prefault({}),
  canvas: canvasSection.prefault({}),
  skills: skillsSection.prefault({}),
  /** `[channels.<name>]`: one table per messaging channel, none by default. */
  channels: z.record(channelNameSchema, channelSchema).default({}),
});

export type HearthConfig = z.infer<typeof configSchema>;
export type GatewayConfig = HearthConfig['gateway'];

/** Keys whose values are secrets: resolved through ENV:/op:// and never printed or returned. */
export function isSecretKey(key: string): boolean {
  return (
    key === 'api_key' ||
    key.endsWith('_api_key') ||
    key.endsWith('_token') ||
    key.endsWith('_secret')
  );
}

export function defaultConfig(): HearthConfig {
  return configSchema.parse({});
}
