import { orm } from '../drizzle.ts';
import type { ChannelPairing, ChannelRepository } from '../database.ts';
import type { SqliteDrizzle } from './repositories.ts';
import { channelMessages, channelPairings, channelSeen } from './schema.ts';

const { and, desc, eq, lt, ne, sql } = orm;

const settle = <T>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));

const messageColumns = {
  id: channelMessages.id,
  channel: channelMessages.channel,
  direction: channelMessages.direction,
  chat_id: channelMessages.chatId,
  user: channelMessages.user,
  text: channelMessages.text,
  timestamp: channelMessages.timestamp,
  read: channelMessages.read,
};

const pairingColumns = {
  channel: channelPairings.channel,
  sender_id: channelPairings.senderId,
  code: channelPairings.code,
  status: channelPairings.status,
  created_at: channelPairings.createdAt,
  approved_at: channelPairings.approvedAt,
};

const pairingValues = (pairing: ChannelPairing) => ({
  channel: pairing.channel,
  senderId: pairing.sender_id,
  code: pairing.code,
  status: pairing.status,
  createdAt: pairing.created_at,
  approvedAt: pairing.approved_at,
});

export function sqliteChannelRepository(db: SqliteDrizzle): ChannelRepository {
  return {
    addMessage: (row) =>
      settle(() => {
        db.insert(channelMessages)
          .values({
            id: row.id,
            channel: row.channel,
            direction: row.direction,
            chatId: row.chat_id,
            user: row.user,
            text: row.text,
            timestamp: row.timestamp,
            read: row.read,
          })
          .run();
      }),
    listMessages: (channel, limit) =>
      settle(() =>
        db
          .select(messageColumns)
          .from(channelMessages)
          .where(eq(channelMessages.channel, channel))
          .orderBy(desc(channelMessages.timestamp), desc(sql`rowid`))
          .limit(limit)
          .all(),
      ),
    recentInbound: (channel, chatId, exceptUser, limit) =>
      settle(() =>
        db
          .select(messageColumns)
          .from(channelMessages)
          .where(
            and(
              eq(channelMessages.channel, channel),
              eq(channelMessages.chatId, chatId),
              eq(channelMessages.direction, 'in'),
              ne(channelMessages.user, exceptUser),
            ),
          )
          .orderBy(desc(channelMessages.timestamp), desc(sql`rowid`))
          .limit(limit)
          .all(),
      ),
    counts: (channel) =>
      settle(() => {
        const row = db
          .select({
            total: sql<number>`count(*)`,
            unread: sql<number>`coalesce(sum(case when ${channelMessages.read} = 0 then 1 else 0 end), 0)`,
            in: sql<number>`coalesce(sum(case when ${channelMessages.direction} = 'in' then 1 else 0 end), 0)`,
            out: sql<number>`coalesce(sum(case when ${channelMessages.direction} = 'out' then 1 else 0 end), 0)`,
            last_at: sql<number | null>`max(${channelMessages.timestamp})`,
          })
          .from(channelMessages)
          .where(eq(channelMessages.channel, channel))
          .get();
        return {
          total: Number(row?.total ?? 0),
          unread: Number(row?.unread ?? 0),
          in: Number(row?.in ?? 0),
          out: Number(row?.out ?? 0),
          last_at: row?.last_at == null ? null : Number(row.last_at),
        };
      }),
    markRead: (channel) =>
      settle(
        () =>
          db
            .update(channelMessages)
            .set({ read: true })
            .where(and(eq(channelMessages.channel, channel), eq(channelMessages.read, false)))
            .run().changes,
      ),
    pairing: (channel, senderId) =>
      settle(() =>
        db
          .select(pairingColumns)
          .from(channelPairings)
          .where(and(eq(channelPairings.channel, channel), eq(channelPairings.senderId, senderId)))
          .get(),
      ),
    pairingByCode: (channel, code) =>
      settle(() =>
        db
          .select(pairingColumns)
          .from(channelPairings)
          .where(and(eq(channelPairings.channel, channel), eq(channelPairings.code, code)))
          .get(),
      ),
    savePairing: (pairing) =>
      settle(() => {
        const values = pairingValues(pairing);
        db.insert(channelPairings)
          .values(values)
          .onConflictDoUpdate({
            target: [channelPairings.channel, channelPairings.senderId],
            set: values,
          })
          .run();
      }),
    listPairings: (channel) =>
      settle(() =>
        db
          .select(pairingColumns)
          .from(channelPairings)
          .where(eq(channelPairings.channel, channel))
          .orderBy(channelPairings.createdAt)
          .all(),
      ),
    claimSeen: (channel, key, expiresAt, now) =>
      settle(
        () =>
          db
            .insert(channelSeen)
            .values({ channel, key, expiresAt })
            .onConflictDoUpdate({
              target: [channelSeen.channel, channelSeen.key],
              set: { expiresAt },
              setWhere: lt(channelSeen.expiresAt, now),
            })
            .run().changes === 1,
      ),
    pruneSeen: (now) =>
      settle(() => db.delete(channelSeen).where(lt(channelSeen.expiresAt, now)).run().changes),
    forget: (channel) =>
      settle(() => {
        db.delete(channelSeen).where(eq(channelSeen.channel, channel)).run();
        return (
          db.delete(channelMessages).where(eq(channelMessages.channel, channel)).run().changes +
          db.delete(channelPairings).where(eq(channelPairings.channel, channel)).run().changes
        );
      }),
  };
}
