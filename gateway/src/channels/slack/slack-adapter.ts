import type { Socket } from 'node:net';
import { App, LogLevel, SocketModeReceiver, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from 'pino';
import { Agent, buildConnector } from 'undici';
import { cappedFetch } from '../../http/outbound/capped-body.ts';
import { watchFrameSizes } from './frame-watch.ts';
import type { ChannelConfig } from '../../config/schema.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink, InboundMessage } from '../ports.ts';

type SlackConfig = Extract<ChannelConfig, { type: 'slack' }>;

/** Slack's advice for one message's `text` (it truncates at 40,000; 4,000 reads well). */
export const SLACK_TEXT_LIMIT = 4000;
/** Longest inbound text taken (Slack itself truncates at 40,000). */
export const SLACK_INBOUND_LIMIT = 40_000;

/**
 * The largest Socket Mode frame taken (an events_api envelope of a 40,000-character message with
 * its blocks stays far below it): a larger one closes the connection, which is counted and
 * reconnected (undici's own limit is 128 MiB).
 */
export const SLACK_MAX_FRAME_BYTES = 1024 * 1024;
/** The largest Web API answer read (`chat.postMessage` answers a few kilobytes). */
export const MAX_WEB_API_ANSWER_BYTES = 1024 * 1024;

/**
 * The dispatcher of the Socket Mode WebSocket: a message over SLACK_MAX_FRAME_BYTES closes it
 * (undici's check), and `onOversized` is told (frame-watch.ts: undici does not say why it
 * closed). Its sockets are kept, so that a stalled one can be destroyed (the Slack client does
 * this only with the dispatcher it builds itself).
 */
function socketModeDispatcher(onOversized: () => void) {
  const sockets = new Set<Socket>();
  const connect = buildConnector({ allowH2: false });
  const dispatcher = new Agent({
    webSocket: { maxPayloadSize: SLACK_MAX_FRAME_BYTES },
    connect: (options, callback) =>
      connect(options, (error, socket) => {
        if (socket) {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          watchFrameSizes(socket, SLACK_MAX_FRAME_BYTES, onOversized);
          callback(null, socket);
        } else callback(error ?? new Error('Socket Mode connector returned no socket'), null);
      }),
  });
  return {
    dispatcher,
    destroySockets: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** The Socket Mode frames Slack sends; anything else is refused (counted). */
const FRAME_TYPES = new Set(['hello', 'disconnect', 'events_api', 'slash_commands', 'interactive']);

/** Bolt's and the Socket Mode client's logging, into the gateway's logger. */
function slackLogger(logger: Logger): SlackLogger {
  let level = LogLevel.WARN;
  return {
    debug: (...msg: unknown[]) => logger.debug({ slack: msg.map(String).join(' ') }, 'slack'),
    info: (...msg: unknown[]) => logger.debug({ slack: msg.map(String).join(' ') }, 'slack'),
    warn: (...msg: unknown[]) => logger.warn({ slack: msg.map(String).join(' ') }, 'slack'),
    error: (...msg: unknown[]) => logger.warn({ slack: msg.map(String).join(' ') }, 'slack'),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * Why a Socket Mode frame is refused before the Slack client sees it (it would throw on an
 * `events_api` envelope without an event), or undefined when it is fine.
 */
export function malformedFrame(text: string): { reason: string; envelopeId?: string } | undefined {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return { reason: 'Socket Mode frame is not JSON' };
  }
  if (typeof frame !== 'object' || frame === null)
    return { reason: 'Socket Mode frame is not an object' };
  const { type, envelope_id: envelopeId, payload } = frame as Record<string, unknown>;
  const id = typeof envelopeId === 'string' ? envelopeId : undefined;
  if (typeof type !== 'string' || !FRAME_TYPES.has(type))
    return {
      reason: `unknown Socket Mode frame type ${String(type).slice(0, 64)}`,
      envelopeId: id,
    };
  if (type === 'events_api') {
    const event = (payload as { event?: { type?: unknown } } | null)?.event;
    if (!id || typeof event?.type !== 'string')
      return { reason: 'events_api envelope without envelope_id or event.type', envelopeId: id };
  }
  return undefined;
}

interface SlackMessageEvent {
  type: string;
  subtype?: string;
  bot_id?: string;
  user?: unknown;
  text?: unknown;
  channel?: unknown;
  channel_type?: string;
  ts?: unknown;
}

/** The inbound message of a `message` or `app_mention` event, a refusal, or undefined to ignore. */
export function toInbound(
  event: SlackMessageEvent,
  botUserId: string,
): InboundMessage | { refused: string } | undefined {
  // Edits, joins, bot posts (ours included) and other subtypes are not someone talking.
  if (event.subtype !== undefined || event.bot_id !== undefined) return undefined;
  if (event.user === botUserId) return undefined;
  const { user, text, channel, ts } = event;
  if (typeof user !== 'string' || typeof channel !== 'string' || typeof ts !== 'string')
    return { refused: `${event.type} event without user, channel or ts` };
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  if (text.length > SLACK_INBOUND_LIMIT)
    return { refused: `${event.type} event of ${text.length} characters` };
  const direct = event.channel_type === 'im';
  const mention = `<@${botUserId}>`;
  const stripped = text.replaceAll(mention, '').trim();
  return {
    // The same message comes as `message` and as `app_mention`: one id, so one is kept.
    id: `${channel}:${ts}`,
    // chat.postMessage takes a user id as channel (the DM with that user).
    chatId: direct ? user : channel,
    senderId: user,
    text: stripped === '' ? text : stripped,
    direct,
    mentioned: event.type === 'app_mention' || text.includes(mention),
  };
}

/**
 * Slack through Bolt in Socket Mode: `apps.connections.open` with the app-level token gives the
 * WebSocket URL (`web_api_url` points both the Socket Mode client and the Web API client at
 * Slack, or a fake); events arrive as `events_api` envelopes Bolt acknowledges; replies go out
 * with `chat.postMessage` (429s waited out with `Retry-After` by the Web API client). A
 * `disconnect` (refresh_requested) or a dropped socket is reconnected here once; if that fails
 * the connection is lost and the channel service reconnects with backoff.
 */
export function createSlackAdapter(config: SlackConfig, io: AdapterIo): ChannelAdapter {
  let app: App | undefined;
  let stopping = false;
  let socketMode: ReturnType<typeof socketModeDispatcher> | undefined;
  /** Web API answers (auth.test, apps.connections.open, chat.postMessage), counted as they stream. */
  const webApiFetch = cappedFetch(io.fetch, {
    maxBytes: MAX_WEB_API_ANSWER_BYTES,
    what: 'a Slack Web API answer',
  });

  function makeApp(next: ChannelLink): { app: App; receiver: SocketModeReceiver } {
    const logger = slackLogger(next.logger);
    const clientOptions = {
      slackApiUrl: config.web_api_url,
      retryConfig: { retries: 3, factor: 2, minTimeout: 250, maxTimeout: 2_000 },
      fetch: webApiFetch,
    };
    socketMode = socketModeDispatcher(() =>
      next.rejected(
        `a Socket Mode message over ${SLACK_MAX_FRAME_BYTES} bytes closed the connection`,
      ),
    );
    const receiver = new SocketModeReceiver({
      appToken: config.app_token,
      logger,
      // Reconnects are ours (a failed reconnect inside the client would go unhandled).
      autoReconnectEnabled: false,
      dispatcher: socketMode.dispatcher,
      installerOptions: { clientOptions },
    });
    // Deferred: `init()` runs auth.test where its failure (a bad bot token) can be caught; Bolt
    // would otherwise start it in the constructor and leave its rejection unhandled.
    const made = new App({
      token: config.bot_token,
      receiver,
      logger,
      clientOptions,
      deferInitialization: true,
    });
    const onMessage = async ({
      event,
      context,
    }: {
      event: SlackMessageEvent;
      context: { botUserId?: string };
    }) => {
      const inbound = toInbound(event, context.botUserId ?? '');
      if (!inbound) return;
      if ('refused' in inbound) return next.rejected(inbound.refused);
      await next.receive(inbound);
    };
    made.event('message', onMessage as never);
    made.event('app_mention', onMessage as never);
    made.error(async (error) => {
      next.rejected(`slack: ${error.message}`);
      return Promise.resolve();
    });
    guardFrames(receiver, next);
    return { app: made, receiver };
  }

  /** Refuses (and acknowledges, so Slack does not resend) frames the client would choke on. */
  function guardFrames(receiver: SocketModeReceiver, next: ChannelLink): void {
    const client = receiver.client;
    const handlers = client.listeners('ws_message') as ((
      data: unknown,
      binary: boolean,
    ) => unknown)[];
    client.removeAllListeners('ws_message');
    client.on('ws_message', (data: unknown, isBinary: boolean) => {
      const text =
        typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer).toString('utf8');
      const refused = isBinary ? { reason: 'binary Socket Mode frame' } : malformedFrame(text);
      if (refused) {
        next.rejected(refused.reason);
        // The client's own ACK (an empty payload for the envelope); TypeScript marks it private.
        if (refused.envelopeId)
          (client as unknown as { send(id: string): Promise<void> })
            .send(refused.envelopeId)
            .catch(() => undefined);
        return;
      }
      for (const handler of handlers) {
        Promise.resolve(handler.call(client, data, isBinary)).catch((error: unknown) => {
          next.rejected(`Socket Mode frame: ${String(error)}`);
        });
      }
    });
    let reconnecting = false;
    client.on('disconnected', () => {
      if (stopping || reconnecting) return;
      reconnecting = true;
      socketMode?.destroySockets(); // one left stalled is not waited for
      next.health(false, 'Slack Socket Mode connection closed; reconnecting');
      client
        .start()
        .then(() => next.health(true))
        .catch((error: unknown) => next.lost(error))
        .finally(() => {
          reconnecting = false;
        });
    });
  }

  return {
    type: 'slack',
    maxTextLength: SLACK_TEXT_LIMIT,
    // One Socket Mode consumer: each event goes to one connection, so one gateway holds it.
    exclusive: true,
    async connect(next) {
      stopping = false;
      const made = makeApp(next);
      try {
        await made.app.init(); // auth.test with the bot token
        await made.app.start(); // apps.connections.open with the app token, then `hello`
      } catch (error) {
        stopping = true;
        await made.app.stop().catch(() => undefined);
        throw error;
      }
      app = made.app;
      next.health(true);
      io.logger.info('slack socket mode connected');
    },
    async disconnect() {
      if (stopping) return;
      stopping = true;
      await app?.stop();
      socketMode?.destroySockets();
      await socketMode?.dispatcher.destroy().catch(() => undefined);
    },
    // The Web API needs no Socket Mode connection: replies to turns still running while the
    // channel winds down go out after `disconnect` too.
    async sendText(chatId, text) {
      if (!app) throw new Error('slack has not connected yet');
      // No unfurls: Slack would fetch a URL the agent wrote (Hearth issue #27).
      await app.client.chat.postMessage({
        channel: chatId,
        text,
        unfurl_links: false,
        unfurl_media: false,
      });
    },
  };
}
