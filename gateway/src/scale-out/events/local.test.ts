import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createConversationStore,
  type ConversationStore,
  type SessionConnection,
} from '../../sessions/conversations.ts';
import { conversationSockets } from '../../sessions/local-sockets.ts';
import { createLocalSessionEvents } from './local.ts';

function socket(): SessionConnection & { frames: string[]; closed: [number, string][] } {
  const frames: string[] = [];
  const closed: [number, string][] = [];
  return {
    frames,
    closed,
    send: (data) => frames.push(data),
    close: (code, reason) => closed.push([code, reason]),
  };
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

  it('the sockets view counts deliveries, and leaves out sessions whose sockets all left', () => {
    const sockets = conversationSockets(conversations);
    const changes: [string, boolean][] = [];
    const unwatch = sockets.watch((id, present) => changes.push([id, present]));
    const [one, two] = [socket(), socket()];
    conversations.get('fay').connections.add(one);
    conversations.get('fay').connections.add(two);
    conversations.get('gus').connections.add(one);
    conversations.get('gus').connections.delete(one);

    expect(sockets.deliver('fay', 'x')).toBe(2);
    expect(sockets.deliver('gus', 'x')).toBe(0);
    expect(sockets.deliver('never-seen', 'x')).toBe(0);
    expect(sockets.has('fay')).toBe(true);
    expect(sockets.has('gus')).toBe(false);
    expect(sockets.has('never-seen')).toBe(false);
    expect(sockets.sessions()).toEqual(['fay']);
    expect(changes).toEqual([
      ['fay', true],
      ['gus', true],
      ['gus', false],
    ]);
    unwatch();
    conversations.get('fay').connections.delete(one);
    expect(changes).toHaveLength(3);
  });

  it('close is a no-op: the sockets belong to the conversations', async () => {
    const events = createLocalSessionEvents(conversationSockets(conversations));
    const one = socket();
    conversations.get('hal').connections.add(one);
    await events.close();
    expect(await events.send('hal', 'after')).toBe(true);
    expect(one.frames).toEqual(['after']);
  });

  it("clear closes the session's sockets with 4000 and forgets it; others stay", async () => {
    const events = createLocalSessionEvents(conversationSockets(conversations));
    const [one, two, other] = [socket(), socket(), socket()];
    conversations.get('ivy').connections.add(one);
    conversations.get('ivy').connections.add(two);
    conversations.get('jon').connections.add(other);
    conversations.get('memory-only');

    expect(await events.clear('ivy')).toBe(true);
    expect(one.closed).toEqual([[4000, 'Session cleared']]);
    expect(two.closed).toEqual([[4000, 'Session cleared']]);
    expect(conversations.peek('ivy')).toBeUndefined();
    expect(other.closed).toEqual([]);
    expect(conversations.peek('jon')).toBeDefined();
    expect(await events.clear('memory-only')).toBe(true);
    expect(conversations.peek('memory-only')).toBeUndefined();
    expect(await events.clear('never-seen')).toBe(false);
  });
});
