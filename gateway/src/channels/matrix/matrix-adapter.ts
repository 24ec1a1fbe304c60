import {
  ClientEvent,
  createClient,
  MatrixScheduler,
  RoomEvent,
  RoomMemberEvent,
  SyncState,
  type MatrixClient,
  type MatrixEvent,
  type Room,
  type RoomMember,
} from 'matrix-js-sdk';
import type { ChannelConfig } from '../../config/schema.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink } from '../ports.ts';
import { cappedFetch } from '../../http/outbound/capped-body.ts';
import { MATRIX_CAPS, tooManyRooms, trimTimelines } from './matrix-caps.ts';
import { classifyEvent } from './matrix-message.ts';
import { quietSdkGlobalLogger, sdkLogger } from './sdk-logger.ts';

type MatrixConfig = Extract<ChannelConfig, { type: 'matrix' }>;

/**
 * Longest text of one message Hearth sends. The spec caps a whole event at 65536 bytes of
 * JSON; 16000 characters of text stay under it even when every character takes 4 bytes.
 */
export const MATRIX_TEXT_LIMIT = 16_000;

/**
 * Events per room the initial sync brings: what arrived while no gateway was connected is
 * answered after a restart up to this many per room.
 */
const INITIAL_SYNC_LIMIT = 50;

/** The channel cursor: the account and the time of the latest event handed over. */
const cursorValue = (userId: string, ts: number) => `${userId} ${ts}`;

function readCursor(value: string | undefined, userId: string): number | undefined {
  const [account, ts] = (value ?? '').split(' ');
  const parsed = Number(ts);
  // Another account's position (the channel was pointed elsewhere) means nothing here.
  return account === userId && Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
}

export interface MatrixOptions {
  /** How long the homeserver holds a `/sync` open (milliseconds). */
  pollTimeoutMs?: number;
}

/**
 * Matrix through matrix-js-sdk (without end-to-end encryption: the bot reads unencrypted rooms),
 * as the bot's own account: the SDK's `/sync` long poll brings messages and invites; replies go
 * out as `m.room.message` events through the SDK's scheduler, which retries a 429
 * `M_LIMIT_EXCEEDED` after its `retry_after_ms` with the same transaction id (the homeserver
 * stores the event once). Invites from `allow_from` senders, and invites to direct chats (so a
 * stranger can ask for a pairing code), are joined; other group invites are left pending.
 * Connectivity loss is the SDK's to retry (reported as health); a revoked token
 * (`M_UNKNOWN_TOKEN`) is a lost connection the service reconnects with backoff. One sync loop
 * per account (`exclusive`), or each gateway would answer every message. The time of the latest
 * event handed over is the channel's cursor (kept in the database): the initial sync after a
 * restart, or on a peer taking over, hands over what came after it.
 */
export function createMatrixAdapter(
  config: MatrixConfig,
  io: AdapterIo,
  options: MatrixOptions = {},
): ChannelAdapter {
  quietSdkGlobalLogger();
  let client: MatrixClient | undefined;
  /** Latest event time handed over; events of a later initial sync up to it were seen. */
  let watermark: number | undefined;
  const seen = new Set<string>();

  function remember(id: string) {
    seen.add(id);
    if (seen.size > 5_000) for (const old of [...seen].slice(0, 1_000)) seen.delete(old);
  }

  /** `refused` is told when the homeserver syncs more rooms than the cap (matrix-caps.ts). */
  function build(link: ChannelLink, refused: (reason: string) => void): MatrixClient {
    // Every homeserver answer, counted as it streams: one over the cap fails (a /sync is retried).
    const homeserverFetch = cappedFetch(io.fetch, {
      maxBytes: MATRIX_CAPS.answerBytes,
      what: 'a homeserver answer',
      onOver: () =>
        link.rejected(`a homeserver answer over ${MATRIX_CAPS.answerBytes} bytes was cut`),
    });
    const made = createClient({
      baseUrl: config.homeserver_url,
      accessToken: config.access_token,
      userId: config.user_id,
      fetchFn: homeserverFetch,
      scheduler: new MatrixScheduler(),
      logger: sdkLogger(io.logger),
    });
    let prepared = false;
    let receiving = Promise.resolve();

    made.on(ClientEvent.Sync, (state, _previous, data) => {
      if (state === SyncState.Prepared || state === SyncState.Syncing) {
        const rooms = made.getRooms();
        if (rooms.length > MATRIX_CAPS.rooms) {
          made.stopClient();
          refused(tooManyRooms(rooms.length));
          return;
        }
        trimTimelines(rooms);
      }
      if (state === SyncState.Prepared) prepared = true;
      if (state === SyncState.Prepared || state === SyncState.Syncing) link.health(true);
      else if (state === SyncState.Reconnecting || state === SyncState.Error) {
        const error = data?.error as { errcode?: string } | undefined;
        if (error?.errcode === 'M_UNKNOWN_TOKEN') {
          made.stopClient();
          link.lost(error);
          return;
        }
        link.health(false, `homeserver unreachable: ${String(data?.error ?? state)}`);
      }
    });

    made.on(
      RoomEvent.Timeline,
      (
        event: MatrixEvent,
        room: Room | undefined,
        toStartOfTimeline: boolean | undefined,
        removed: boolean,
        data,
      ) => {
        // A removed event (trimTimelines dropping old ones) is not news.
        if (!room || toStartOfTimeline || removed || data?.liveEvent === false) return;
        const id = event.getId();
        // The initial sync replays recent history: only what came after the last event seen.
        if (!prepared && (watermark === undefined || event.getTs() <= watermark)) return;
        if (id && seen.has(id)) return;
        const classified = classifyEvent(event, room, config.user_id);
        if (classified.kind === 'refused') link.rejected(`${room.roomId}: ${classified.reason}`);
        if (classified.kind !== 'message') return;
        if (id) remember(id);
        watermark = Math.max(watermark ?? 0, event.getTs());
        // The SDK emits synchronously: hand messages over one at a time, in timeline order.
        const message = classified.message;
        const handedOver = watermark;
        receiving = receiving
          .then(() => link.receive(message))
          .then(() => link.cursor.write(cursorValue(config.user_id, handedOver)))
          .catch((error: unknown) => {
            link.rejected(`${room.roomId}: not stored: ${String(error)}`);
          });
      },
    );

    made.on(RoomMemberEvent.Membership, (event: MatrixEvent, member: RoomMember) => {
      if (member.userId !== config.user_id || member.membership !== 'invite') return;
      const inviter = event.getSender() ?? '';
      const direct = event.getContent().is_direct === true;
      if (!config.allow_from.includes(inviter) && !direct) {
        io.logger.info(
          { room: member.roomId, inviter },
          'matrix group invite from a stranger left pending',
        );
        return;
      }
      made.joinRoom(member.roomId).catch((error: unknown) => {
        link.rejected(`${member.roomId}: could not join: ${String(error)}`);
      });
    });
    return made;
  }

  return {
    type: 'matrix',
    maxTextLength: MATRIX_TEXT_LIMIT,
    exclusive: true,
    async connect(link) {
      /** While connecting, a refusal fails the connect; once connected, the connection is lost. */
      let refuseConnect: ((error: Error) => void) | undefined;
      const made = build(link, (reason) => {
        link.rejected(reason);
        if (refuseConnect) refuseConnect(new Error(reason));
        else if (client === made) link.lost(new Error(reason));
      });
      // A bad token or an unreachable homeserver fails the connect.
      const who = await made.whoami();
      if (who.user_id !== config.user_id)
        throw new Error(`the access token belongs to ${who.user_id}, not ${config.user_id}`);
      // The first connect of this process starts where the last holder of the channel (this
      // gateway before a restart, or a peer that died) left off; the very first one, now.
      watermark ??= readCursor(await link.cursor.read(), config.user_id) ?? io.now();
      const ready = new Promise<void>((resolve, reject) => {
        refuseConnect = reject;
        const onSync = (
          state: SyncState,
          _previous: SyncState | null,
          data?: { error?: unknown },
        ) => {
          if (state === SyncState.Prepared) {
            made.off(ClientEvent.Sync, onSync);
            resolve();
          } else if (state === SyncState.Error || state === SyncState.Reconnecting) {
            made.off(ClientEvent.Sync, onSync);
            reject(data?.error instanceof Error ? data.error : new Error(`matrix sync ${state}`));
          }
        };
        made.on(ClientEvent.Sync, onSync);
      });
      client = made;
      await made.startClient({
        initialSyncLimit: INITIAL_SYNC_LIMIT,
        pollTimeout: options.pollTimeoutMs ?? 30_000,
        disablePresence: true,
        lazyLoadMembers: false,
      });
      try {
        await ready;
      } catch (error) {
        client = undefined;
        made.stopClient();
        throw error;
      } finally {
        refuseConnect = undefined;
      }
      io.logger.info({ user: config.user_id }, 'matrix syncing');
    },
    disconnect() {
      // The sync loop stops taking messages; the client still sends the replies of turns in
      // flight (its scheduler finishes what it was handed) until the next connect replaces it.
      client?.stopClient();
      client?.removeAllListeners();
      return Promise.resolve();
    },
    async sendText(chatId, text) {
      if (!client) throw new Error('matrix is not connected');
      await client.sendTextMessage(chatId, text);
    },
    async typing(chatId) {
      await client?.sendTyping(chatId, true, 10_000);
    },
  };
}
