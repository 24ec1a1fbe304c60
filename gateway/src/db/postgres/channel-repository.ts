import { orm } from '../drizzle.ts';
import type { ChannelPairing, ChannelRepository } from '../database.ts';
import type { PostgresDrizzle } from './repositories.ts';
import { channelMessages, channelPairings, channelSeen } from './schema.ts';

const { and, asc, desc, eq, lt, ne, sql } = orm;

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

export function postgresChannelRepository(db: PostgresDrizzle): ChannelRepository {
  return {
    async addMessage(row) {
      await db.insert(channelMessages).values({
        id: row.id,
        channel: row.channel,
        direction: row.direction,
        chatId: row.chat_id,
        user: row.user,
        text: row.text,
        timestamp: row.timestamp,
        read: row.read,
      });
    },
    listMessages: (channel, limit) =>
      db
        .select(messageColumns)
        .from(channelMessages)
        .where(eq(channelMessages.channel, channel))
        .orderBy(desc(channelMessages.timestamp), desc(channelMessages.id))
        .limit(limit),
    recentInbound: (channel, chatId, exceptUser, limit) =>
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
        .orderBy(desc(channelMessages.timestamp), desc(channelMessages.id))
        .limit(limit),
    async counts(channel) {
      const rows = await db
        .select({
          total: sql<string>`count(*)`,
          unread: sql<string>`count(*) filter (where not ${channelMessages.read})`,
          in: sql<string>`count(*) filter (where ${channelMessages.direction} = 'in')`,
          out: sql<string>`count(*) filter (where ${channelMessages.direction} = 'out')`,
          last_at: sql<string | null>`max(${channelMessages.timestamp})`,
        })
        .from(channelMessages)
        .where(eq(channelMessages.channel, channel));
      const row = rows[0];
      return {
        total: Number(row?.total ?? 0),
        unread: Number(row?.unread ?? 0),
        in: Number(row?.in ?? 0),
        out: Number(row?.out ?? 0),
        last_at: row?.last_at == null ? null : Number(row.last_at),
      };
    },
    async markRead(channel) {
      const result = await db
        .update(channelMessages)
        .set({ read: true })
        .where(and(eq(channelMessages.channel, channel), eq(channelMessages.read, false)));
      return result.rowCount ?? 0;
    },
    async pairing(channel, senderId) {
      const rows = await db
        .select(pairingColumns)
        .from(channelPairings)
        .where(and(eq(channelPairings.channel, channel), eq(channelPairings.senderId, senderId)));
      return rows[0];
    },
    async pairingByCode(channel, code) {
      const rows = await db
        .select(pairingColumns)
        .from(channelPairings)
        .where(and(eq(channelPairings.channel, channel), eq(channelPairings.code, code)));
      return rows[0];
    },
    async savePairing(pairing) {
      const values = pairingValues(pairing);
      await db
        .insert(channelPairings)
        .values(values)
        .onConflictDoUpdate({
          target: [channelPairings.channel, channelPairings.senderId],
          set: values,
        });
    },
    listPairings: (channel) =>
      db
        .select(pairingColumns)
        .from(channelPairings)
        .where(eq(channelPairings.channel, channel))
        .orderBy(asc(channelPairings.createdAt)),
    async claimSeen(channel, key, expiresAt, now) {
      const result = await db
        .insert(channelSeen)
        .values({ channel, key, expiresAt })
        .onConflictDoUpdate({
          target: [channelSeen.channel, channelSeen.key],
          set: { expiresAt },
          setWhere: lt(channelSeen.expiresAt, now),
        });
      return result.rowCount === 1;
    },
    async pruneSeen(now) {
      const result = await db.delete(channelSeen).where(lt(channelSeen.expiresAt, now));
      return result.rowCount ?? 0;
    },
    async forget(channel) {
      await db.delete(channelSeen).where(eq(channelSeen.channel, channel));
      const messages = await db.delete(channelMessages).where(eq(channelMessages.channel, channel));
      const pairings = await db.delete(channelPairings).where(eq(channelPairings.channel, channel));
      return (messages.rowCount ?? 0) + (pairings.rowCount ?? 0);
    },
  };
}
