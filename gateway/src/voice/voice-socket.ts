/**
 * `/ws/voice`: push-to-talk and continuous listening from a browser or the CLI. The frame
 * protocol (README "Voice socket") is JSON text frames only; audio travels base64-encoded:
 *
 *   client → server
 *     {type: "ptt_start"}                                   start recording
 *     {type: "audio", data: <base64 PCM16LE>, sample_rate: 16000}   16 kHz mono, ≤ 64 KiB each
 *     {type: "ptt_stop"}                                    stop: transcribe and answer
 *     {type: "continuous_start", wake?: bool}               VAD-segmented turns (after the wake word)
 *     {type: "continuous_stop"}, {type: "ping"}
 *   server → client
 *     {type: "state", state, ptt, continuous, wake}         on connect and on every change
 *     {type: "transcript", text}
 *     {type: "response_chunk", text} … {type: "response_done", text, session_id}
 *     {type: "tts_audio", data: <base64 PCM16LE>, sample_rate, sentence, final}  (the reply's
 *       last audio frame has final: true; it may carry no samples)
 *     {type: "error", detail}, {type: "pong"}
 *
 * `?client_id=` is the persistent client id and the durable memory identity (the same session
 * as the client's `/ws` chat); without one the connection gets a fresh session. A bad frame
 * gets an error frame and the socket stays open; closing the socket aborts a running turn.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';
import { isHearthError } from '../errors.ts';
import { sessionIdFor } from '../memory/ports.ts';
import type { Metrics } from '../observability/metrics.ts';
import { createFrameSender, parseFrame, type FrameSenderLimits } from '../ws/send.ts';
import { bytesToPcm16, looksLikeContainer, pcm16ToBytes } from './audio/pcm.ts';
import { INPUT_SAMPLE_RATE } from './ports.ts';
import type { VoiceService } from './voice-service.ts';
import type { VoiceSession } from './voice-session.ts';
import type { VoiceTurnSink } from './voice-turn.ts';

/** Largest decoded audio frame: 64 KiB, about 2 s of 16 kHz PCM16. */
export const MAX_AUDIO_FRAME_BYTES = 65_536;
/**
 * Largest frame the handler reads: an audio frame of MAX_AUDIO_FRAME_BYTES is ~88 KiB of JSON
 * and base64. A larger frame is refused with an error frame without being parsed or kept.
 */
export const MAX_VOICE_FRAME_BYTES = 131_072;
/**
 * The socket's hard cap (its `maxPayload`): a frame above it closes the socket with 1009 before
 * it is buffered whole. Well above MAX_VOICE_FRAME_BYTES, so a client that sends a frame that
 * is merely too big (a long recording in one frame) gets an error frame and keeps the socket.
 */
export const VOICE_SOCKET_MAX_PAYLOAD = 4 * 1_048_576;
/** Samples per `tts_audio` frame (32 KiB of PCM16). */
const TTS_FRAME_SAMPLES = 16_384;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface VoiceSocketDeps {
  service: VoiceService;
  metrics: Metrics;
  logger: Logger;
  frameLimits?: Partial<FrameSenderLimits>;
}

function clientIdOf(request: IncomingMessage): string | undefined {
  const id = new URL(request.url ?? '/', 'http://gateway').searchParams.get('client_id');
  return id && /^[\w.-]{1,128}$/.test(id) ? id : undefined;
}

function rawSize(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, part) => total + part.length, 0);
  return data.byteLength;
}

function detailOf(error: unknown): string {
  return isHearthError(error) ? error.message : 'Internal server error';
}

/** The audio of an `audio` frame, or the reason it is refused. */
export function decodeAudioFrame(frame: Record<string, unknown>): Int16Array | string {
  const rate = frame.sample_rate ?? INPUT_SAMPLE_RATE;
  if (rate !== INPUT_SAMPLE_RATE)
    return `sample_rate: audio must be ${INPUT_SAMPLE_RATE} Hz mono PCM16 (got ${JSON.stringify(rate)?.slice(0, 20)})`;
  if (typeof frame.data !== 'string') return 'data: must be base64-encoded PCM16 audio';
  if (frame.data.length > Math.ceil(MAX_AUDIO_FRAME_BYTES / 3) * 4)
    return `data: an audio frame is limited to ${MAX_AUDIO_FRAME_BYTES} bytes; send smaller frames`;
  if (frame.data.length % 4 !== 0 || !BASE64.test(frame.data)) return 'data: not valid base64';
  const bytes = Buffer.from(frame.data, 'base64');
  if (bytes.length === 0) return 'data: empty audio frame';
  const container = looksLikeContainer(bytes);
  if (container) return `data: looks like a ${container} file; send raw 16 kHz mono PCM16 samples`;
  if (bytes.length % 2 !== 0) return 'data: PCM16 audio must have an even byte length';
  return bytesToPcm16(bytes);
}

export function voiceSocket(deps: VoiceSocketDeps) {
  return (socket: WebSocket, request: IncomingMessage): void => {
    const out = createFrameSender(socket, {
      limits: deps.frameLimits,
      onSlowClose: () => deps.metrics.wsClosedSlowTotal.inc(),
    });
    const clientId = clientIdOf(request);
    const sessionId = clientId ? sessionIdFor('web', clientId) : `voice-${randomUUID()}`;
    const reject = (detail: string) => {
      deps.metrics.wsFramesRejectedTotal.inc();
      out.sendNow({ type: 'error', detail });
    };
    let session: VoiceSession | undefined;
    let lastRate = 0;
    const state = (phase: string) =>
      out.send({
        type: 'state',
        state: phase,
        ptt: !deps.service.status().ptt_available
          ? 'unavailable'
          : session?.recording
            ? 'recording'
            : 'ready',
        continuous: session?.listening ?? false,
        wake: session?.wakeActive ?? false,
      });
    const sink: VoiceTurnSink = {
      phase: async (phase) => {
        await state(phase);
      },
      transcript: async (text) => {
        await out.send({ type: 'transcript', text });
      },
      responseChunk: async (text) => {
        await out.send({ type: 'response_chunk', text });
      },
      responseDone: async (text, session_id) => {
        await out.send({ type: 'response_done', text, session_id });
      },
      audio: async (audio, info) => {
        if (audio.samples.length === 0) {
          // The end of a reply whose last sentence was already sent.
          if (info.final)
            await out.send({
              type: 'tts_audio',
              data: '',
              sample_rate: lastRate,
              sentence: '',
              final: true,
            });
          return;
        }
        lastRate = audio.sampleRate;
        for (let offset = 0; offset < audio.samples.length; offset += TTS_FRAME_SAMPLES) {
          const last = offset + TTS_FRAME_SAMPLES >= audio.samples.length;
          await out.send({
            type: 'tts_audio',
            data: pcm16ToBytes(audio.samples.subarray(offset, offset + TTS_FRAME_SAMPLES)).toString(
              'base64',
            ),
            sample_rate: audio.sampleRate,
            sentence: info.sentence,
            final: info.final && last,
          });
        }
      },
    };
    try {
      session = deps.service.openSession(sessionId, sink, (error) => reject(detailOf(error)));
    } catch (error) {
      // Voice is still starting: say so, and keep answering (every frame gets the reason).
      reject(detailOf(error));
    }
    void state('idle');
    socket.on('close', () => session?.close());

    /** Frames are handled one at a time, in order (audio must not overtake ptt_stop). */
    let queue: Promise<void> = Promise.resolve();
    socket.on('message', (data: RawData, isBinary: boolean) => {
      const size = rawSize(data);
      if (size > MAX_VOICE_FRAME_BYTES) {
        // Refused in its turn, without holding on to the frame.
        queue = queue.then(() =>
          reject(
            `frame too large (${size} bytes): a /ws/voice frame is limited to ${MAX_VOICE_FRAME_BYTES} bytes (audio: ${MAX_AUDIO_FRAME_BYTES} bytes of PCM16 per frame); send smaller frames`,
          ),
        );
        return;
      }
      queue = queue
        .then(() => handle(data, isBinary))
        .catch((error: unknown) => reject(detailOf(error)));
    });

    async function handle(data: RawData, isBinary: boolean): Promise<void> {
      if (isBinary)
        return reject(
          'binary frames are not accepted: send {"type": "audio", "data": <base64 PCM16>}',
        );
      const frame = parseFrame(data);
      if (!frame) return reject('Frames must be JSON objects with a type');
      if (frame.type === 'ping') return void out.sendNow({ type: 'pong' });
      if (!session) {
        try {
          session = deps.service.openSession(sessionId, sink, (error) => reject(detailOf(error)));
        } catch (error) {
          return reject(detailOf(error));
        }
      }
      switch (frame.type) {
        case 'ptt_start':
          if (!(await session.pttStart())) reject('already recording');
          return;
        case 'audio': {
          const audio = decodeAudioFrame(frame);
          if (typeof audio === 'string') return reject(audio);
          return session.pushAudio(audio);
        }
        case 'ptt_stop':
          if (!session.recording) return reject('not recording: send ptt_start first');
          // The turn runs on; further frames (continuous_start, ping) are not held up by it.
          void session.pttStop();
          return;
        case 'continuous_start':
          if (frame.wake !== undefined && typeof frame.wake !== 'boolean')
            return reject('wake: must be a boolean');
          if (!(await session.continuousStart(frame.wake === true))) reject('already listening');
          return;
        case 'continuous_stop':
          if (!(await session.continuousStop())) reject('not listening');
          return;
        default:
          return reject(`Unknown frame type '${frame.type.slice(0, 40)}'`);
      }
    }
  };
}
