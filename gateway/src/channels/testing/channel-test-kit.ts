import { channelSchema } from '../../config/schema.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import type { ReplyScript } from '../../testing/fakes/fake-llm/script.ts';

export type Json = Record<string, unknown>;

/** The model's reply asking to run `command` with the (gated) shell tool. */
export const shell = (command: string): ReplyScript => ({
  toolCalls: [{ name: 'shell', arguments: { command } }],
});

/**
 * The chat test bed (a real gateway and the fake LLM) with one channel `name` configured; in
 * `home` when given (a restarted gateway: stop the first with `gw.gateway.close()`, which keeps it).
 */
export function startChannelTestBed(
  name: string,
  channel: Json,
  options: { home?: string } = {},
): Promise<ChatTestBed> {
  return startChatTestBed(undefined, {
    home: options.home,
    config: { channels: { [name]: channelSchema.parse(channel) } },
  });
}

/** A test's reads and writes of the gateway's `/api/v1`. */
export interface GatewayApi {
  /** One request; `body` is sent as JSON. Answers the status and the JSON body. */
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Json }>;
  /** A counter's values by label set, from `/metrics/snapshot` (`{}` before its first count). */
  counter: (name: string) => Promise<Record<string, number>>;
  /** The channel's `status` as `/channels/<name>` reports it. */
  channelStatus: (name: string) => Promise<unknown>;
  /** The channel's `stats.errors_total` as `/channels/<name>` reports it. */
  errorsTotal: (name: string) => Promise<number>;
  /** The approvals waiting for a decision. */
  pendingApprovals: () => Promise<{ id: string }[]>;
  /** The pairing code the channel issued to `senderId`, if any. */
  pairingCode: (channel: string, senderId: string) => Promise<string | undefined>;
}

/**
 * The gateway's API for a test; `url` is read on every request (the test bed starts in
 * `beforeAll`), `headers` go with every request (an API key).
 */
export function gatewayApi(url: () => string, headers: Record<string, string> = {}): GatewayApi {
  const call: GatewayApi['call'] = async (method, path, body) => {
    const res = await fetch(`${url()}/api/v1${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const channel = async (name: string) => (await call('GET', `/channels/${name}`)).body;
  return {
    call,
    counter: async (name) =>
      (
        (await call('GET', '/metrics/snapshot')).body as Record<
          string,
          { values: Record<string, number> }
        >
      )[name]?.values ?? {},
    channelStatus: async (name) => (await channel(name)).status,
    errorsTotal: async (name) =>
      ((await channel(name)).stats as { errors_total: number }).errors_total,
    pendingApprovals: async () =>
      (await call('GET', '/approvals/pending')).body.pending as { id: string }[],
    pairingCode: async (channelName, senderId) => {
      const pairings = (await call('GET', `/channels/${channelName}/pairings`)).body
        .pairings as Json[];
      return pairings.find((p) => p.sender_id === senderId)?.code as string | undefined;
    },
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The notice's first words, with the short id. */
const NOTICE_HEAD = String.raw`Approval needed \[([0-9a-f]{8})\]`;
/** A tainted turn's notice: one line per untrusted source, then "then … asks to run". */
const SOURCE_LINES = String.raw`(?:\n(?:After reading|It would send) [^\n]*)+\nthen `;
/** "the agent asks to run " after source lines, or a requester's "skill x asks to run ". */
const ASKER = String.raw`(?:[^\n]*? asks to run )?`;

/**
 * The 8-hex-digit short id in an approval notice for the shell `command`, if it is one: the
 * clean form (`Approval needed [id] shell: <command>`), the form naming what the turn read first
 * (`Approval needed [id]`, `After reading …` lines, `then the agent asks to run shell:
 * <command>`; approvals/notice-text.ts) and the forms a requester (a skill) asks in. The command
 * must be the whole line: a notice for a longer command is not one for `command`.
 */
export const approvalShortId = (text: string | undefined, command: string): string | undefined =>
  new RegExp(
    `${NOTICE_HEAD}(?: |${SOURCE_LINES})${ASKER}shell: ${escapeRegExp(command)}(?:\n|$)`,
  ).exec(text ?? '')?.[1];
