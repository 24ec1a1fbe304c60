import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createConversationStore,
  type ConversationStore,
  type SessionConnection,
} from '../agent/conversations.ts';
import { conversationSockets, createLocalSessionEvents } from './local.ts';

function socket(): SessionConnection & { frames: string[] } {
  const frames: string[] = [];
  return { frames, send: (data) => frames.push(data), close: () => undefined };
}

describe('session events on one gateway', () => {
  let conversations: ConversationStore;
  beforeEach(() => {
    conversations = createConversationStore({ idleTimeoutMs: 60_000, now: Date.now });
  });
  afterEach(() => conversations.close());

  it('reports when a session gets its first socket and loses its last', () => {
    const changes: [string, boolean][] = [];
    const unwatch = conversations.watchPresence((id, present) => changes.push([id, present]));
    const [one, two] = [socket(), socket()];
    const state = conversations.get('ada');
    state.connections.add(one);
    state.connections.add(two);
    state.connections.add(one);
    expect(conversations.hasConnections('ada')).toBe(true);
    state.connections.delete(one);
    state.connections.delete(two);
    state.connections.delete(two);
    expect(changes).toEqual([
      ['ada', true],
      ['ada', false],
    ]);
    expect(conversations.hasConnections('ada')).toBe(false);
    unwatch();
    state.connections.add(one);
    expect(changes).toHaveLength(2);
  });

  it('delivers a frame to every socket of the session, and says whether anybody got it', async () => {
    const sockets = conversationSockets(conversations);
    const events = createLocalSessionEvents(sockets);
    expect(events.kind).toBe('in-process');
    const [a, b, other] = [socket(), socket(), socket()];
    conversations.get('bob').connections.add(a);
    conversations.get('bob').connections.add(b);
    conversations.get('eve').connections.add(other);
    expect(sockets.sessions().sort()).toEqual(['bob', 'eve']);

    expect(await events.send('bob', '{"type":"approval_request"}')).toBe(true);
    expect(a.frames).toEqual(['{"type":"approval_request"}']);
    expect(b.frames).toEqual(['{"type":"approval_request"}']);
    expect(other.frames).toEqual([]);
    expect(await events.send('nobody', '{}')).toBe(false);
  });
});
