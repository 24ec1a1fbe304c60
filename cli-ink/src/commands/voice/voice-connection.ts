/**
 * The CLI end of `/ws/voice` (README "Voice socket"): sends 16 kHz mono PCM16 as base64
 * `audio` frames and follows the server's frames. One turn is over when the session is idle
 * (or listening) again after its transcript.
 */
import { CliError } from '../../cli-error.ts';

export type VoiceFrame = { type: string } & Record<string, unknown>;

/** Samples per audio frame: half a second (16 KiB), well under the 64 KiB frame limit. */
const FRAME_SAMPLES = 8_000;

export interface VoiceConnection {
  send(frame: VoiceFrame): void;
  sendAudio(samples: Int16Array): void;
  /** Resolves with the next frame that matches; rejects on an error frame or a close. */
  next(match: (frame: VoiceFrame) => boolean, timeoutMs?: number): Promise<VoiceFrame>;
  onFrame(listener: (frame: VoiceFrame) => void): void;
  close(): void;
}

function toBase64(samples: Int16Array): string {
  const bytes = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, index) => bytes.writeInt16LE(sample, index * 2));
  return bytes.toString('base64');
}

export function openVoiceConnection(url: string, protocols: string[]): Promise<VoiceConnection> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols);
    const listeners = new Set<(frame: VoiceFrame) => void>();
    let closed: CliError | undefined;
    const timer = setTimeout(() => {
      socket.close();
      reject(new CliError(`could not connect to ${url} (timed out)`));
    }, 10_000);
    socket.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new CliError(`could not connect to ${url}; is the gateway running? (hearth start)`));
    });
    socket.addEventListener('close', (event) => {
      closed = new CliError(`the gateway closed the voice connection (${event.code})`);
      for (const listener of listeners) listener({ type: '__closed' });
    });
    socket.addEventListener('message', (event) => {
      let frame: VoiceFrame;
      try {
        frame = JSON.parse(String(event.data)) as VoiceFrame;
      } catch {
        return;
      }
      for (const listener of listeners) listener(frame);
    });
    socket.addEventListener('open', () => {
      clearTimeout(timer);
      resolve({
        send: (frame) => socket.send(JSON.stringify(frame)),
        sendAudio(samples) {
          for (let offset = 0; offset < samples.length; offset += FRAME_SAMPLES)
            socket.send(
              JSON.stringify({
                type: 'audio',
                data: toBase64(samples.subarray(offset, offset + FRAME_SAMPLES)),
                sample_rate: 16_000,
              }),
            );
        },
        onFrame: (listener) => void listeners.add(listener),
        next(match, timeoutMs = 120_000) {
          return new Promise((resolveFrame, rejectFrame) => {
            if (closed) {
              rejectFrame(closed);
              return;
            }
            const done = () => {
              listeners.delete(listener);
              clearTimeout(wait);
            };
            const listener = (frame: VoiceFrame) => {
              if (frame.type === '__closed') {
                done();
                rejectFrame(closed ?? new CliError('the gateway closed the voice connection'));
              } else if (frame.type === 'error') {
                done();
                rejectFrame(new CliError(String(frame.detail)));
              } else if (match(frame)) {
                done();
                resolveFrame(frame);
              }
            };
            const wait = setTimeout(() => {
              listeners.delete(listener);
              rejectFrame(new CliError(`no answer from the gateway within ${timeoutMs / 1000} s`));
            }, timeoutMs);
            listeners.add(listener);
          });
        },
        close: () => socket.close(),
      });
    });
  });
}
