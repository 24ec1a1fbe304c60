import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

type Frame = Record<string, unknown> & { type: string };

/** The first frame of `socket` that `match` accepts (bounded: 5 s). */
function nextFrame(socket: WebSocket, match: (frame: Frame) => boolean): Promise<Frame> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching frame within 5 s')), 5_000);
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse((data as Buffer).toString('utf8')) as Frame;
      if (!match(frame)) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(frame);
    };
    socket.on('message', onMessage);
  });
}

describe('the approval notice of a chat turn', () => {
  let bed: ChatTestBed;
  beforeAll(async () => void (bed = await startChatTestBed()));
  afterAll(() => bed.close());

  it('shows the command’s control and bidi characters as escapes; `command` keeps the exact bytes', async () => {
    const command = 'touch X #\u001b[2K\r\u001b[32mls -la\u202e\u0085\u2066';
    bed.fake.reply({ toolCalls: [{ name: 'shell', arguments: { command } }] }, { text: 'ok' });
    const socket = new WebSocket(`ws://127.0.0.1:${bed.gw.port}/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    try {
      const request = nextFrame(socket, (f) => f.type === 'approval_request');
      socket.send(JSON.stringify({ type: 'chat', message: 'run it', session_id: 'hidden' }));
      const frame = await request;
      const short = String(frame.id).slice(0, 8);
      expect(frame.command).toBe(command);
      expect(frame.text).toBe(
        `Approval needed [${short}] shell: touch X #\\x1b[2K\\r\\x1b[32mls -la\\u202e\\x85\\u2066\n` +
          // Marked, so its length and what the marks mean are stated (issue #27).
          `(28 characters; runs of spaces shown as · or ␠×N, tabs as →, line breaks as ↵, hidden characters as \\ escapes)\n` +
          `in ${join(bed.gw.home, 'workspace')}\n` +
          `Reply "approve ${short}" or "deny ${short}" within 120 s; ` +
          // Control characters make the line opaque to the analysis: always cannot store it.
          `"approve ${short} always" approves it this time only: the analysis cannot see what it runs (control character U+001B).`,
      );
      const done = nextFrame(socket, (f) => f.type === 'message_done' && f.text === 'ok');
      socket.send(JSON.stringify({ type: 'chat', message: `deny ${short}`, session_id: 'hidden' }));
      await done;
    } finally {
      socket.close();
    }
  });
});
