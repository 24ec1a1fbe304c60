/**
 * What one homeserver can make the gateway hold. matrix-js-sdk keeps every room it syncs and
 * every event of each room's live timeline for as long as the client runs; a bot that never
 * scrolls back needs only the latest of them (a reply to the bot is recognised by the event it
 * replies to, when that event is still held). After each sync the oldest events of a long
 * timeline are dropped, and more rooms than the cap refuse the connection. Every homeserver
 * answer (`/sync` included) is read counted as it streams.
 */
import type { Room } from 'matrix-js-sdk';

export const MATRIX_CAPS = {
  /** Bytes of one homeserver answer (an initial sync of 50 events in each of many rooms fits). */
  answerBytes: 32 * 1024 * 1024,
  /** Rooms of one account (joined, invited or left, as the client holds them). */
  rooms: 1_000,
  /** Events of one room's live timeline; past it, the oldest are dropped down to half of it. */
  timelineEvents: 500,
} as const;

/** Drops the oldest events of each room's live timeline over `max`; returns how many went. */
export function trimTimelines(rooms: readonly Room[], max: number = MATRIX_CAPS.timelineEvents) {
  let dropped = 0;
  for (const room of rooms) {
    const events = room.getLiveTimeline().getEvents();
    if (events.length <= max) continue;
    const oldest = events.slice(0, events.length - Math.floor(max / 2));
    const ids = oldest.map((event) => event.getId()).filter((id): id is string => id !== undefined);
    room.removeEvents(ids);
    dropped += ids.length;
  }
  return dropped;
}

export const tooManyRooms = (count: number) =>
  `the homeserver syncs ${count} rooms for this account: at most ${MATRIX_CAPS.rooms} are taken`;
