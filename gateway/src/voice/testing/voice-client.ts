/**
 * Test support: a `/ws/voice` client that records every frame and waits for the ones a test
 * expects, and sends audio the way the documented protocol says (base64 PCM16 in JSON).
 */
import WebSocket from 'ws';
import { pcm16ToBytes } from '../audio/pcm.ts';

export type VoiceFrame = { type: string } & Record<string, unknown>;

export interface VoiceClient {
  socket: WebSocket;
  frames: VoiceFrame[];
  send(frame: unknown): void;
  sendAudio(samples: Int16Array, frameSamples?: number): void;
  /** Resolves with the first frame (from `from` on) matching; rejects after `timeoutMs`. */
  waitFor(
    match: (frame: VoiceFrame) => boolean,
    timeoutMs?: number,
    from?: number,
  ): Promise<VoiceFrame>;
  close(): Promise<void>;
}

export async function connectVoice(
  url: string,
  options: { headers?: Record<string, string>; query?: string } = {},
): Promise<VoiceClient> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/voice${options.query ?? ''}`, {
    headers: options.headers,
  });
  const frames: VoiceFrame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    frames.push(JSON.parse(data.toString('utf8')) as VoiceFrame);
    for (const waiter of waiters) waiter();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    sendAudio(samples, frameSamples = 8_000) {
      for (let offset = 0; offset < samples.length; offset += frameSamples) {
        const data = pcm16ToBytes(samples.subarray(offset, offset + frameSamples)).toString(
          'base64',
        );
        socket.send(JSON.stringify({ type: 'audio', data, sample_rate: 16_000 }));
      }
    },
    waitFor(match, timeoutMs = 20_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.slice(from).find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching frame in ${timeoutMs} ms; got ${JSON.stringify(frames.map((f) => f.type))}`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}
