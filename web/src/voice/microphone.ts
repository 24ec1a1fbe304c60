import { createFramer, createResampler, floatToPcm16, rmsOf, VOICE_INPUT_RATE } from './pcm.ts';

/** Served from the gateway's own origin (web/public): the CSP allows no blob: or data: module. */
const WORKLET_URL = '/voice-capture.js';
/** 100 ms of 16 kHz audio per `/ws/voice` frame (3.2 KB, far under its 64 KiB limit). */
const FRAME_SAMPLES = 1_600;

/** Why the microphone cannot be used, said the way the page shows it. */
export class MicrophoneError extends Error {
  readonly denied: boolean;
  constructor(message: string, denied = false) {
    super(message);
    this.denied = denied;
  }
}

export interface Microphone {
  /** Stops capture and releases the device; returns the last partial frame, if any. */
  stop(): Int16Array | undefined;
}

/**
 * What keeps this browser from capturing audio at all (no secure context, no getUserMedia, no
 * AudioWorklet), or undefined when it can.
 */
export function browserAudioMissing(): string | undefined {
  if (!window.isSecureContext)
    return 'the microphone needs a secure context: open Hearth over https or on localhost';
  if (!navigator.mediaDevices?.getUserMedia)
    return 'this browser does not give pages the microphone';
  if (typeof AudioWorkletNode === 'undefined') return 'this browser has no AudioWorklet';
  return undefined;
}

/** The microphone permission when the browser says (`denied` is what matters), else undefined. */
export async function microphonePermission(): Promise<PermissionStatus | undefined> {
  try {
    return await navigator.permissions.query({ name: 'microphone' });
  } catch {
    return undefined;
  }
}

/** The capture module, loaded once per audio context. */
const loaded = new WeakMap<AudioContext, Promise<void>>();
function loadWorklet(context: AudioContext): Promise<void> {
  let loading = loaded.get(context);
  if (!loading) {
    loading = context.audioWorklet.addModule(WORKLET_URL);
    loaded.set(context, loading);
    loading.catch(() => loaded.delete(context));
  }
  return loading;
}

function reasonOf(error: unknown): MicrophoneError {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return new MicrophoneError(
      'microphone permission denied: allow the microphone for this site in the browser, then try again',
      true,
    );
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return new MicrophoneError('no microphone found');
  if (name === 'NotReadableError')
    return new MicrophoneError('the microphone is in use by another program or cannot be read');
  return new MicrophoneError(`the microphone could not start: ${(error as Error).message}`);
}

/**
 * Opens the microphone in `context`: an AudioWorklet taps it, each block is resampled to 16 kHz
 * mono PCM16 and cut into 100 ms frames for `onFrame`; `onLevel` gets each block's RMS level.
 */
export async function openMicrophone(
  context: AudioContext,
  onFrame: (frame: Int16Array) => void,
  onLevel: (level: number) => void,
): Promise<Microphone> {
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
    });
  } catch (error) {
    throw reasonOf(error);
  }
  try {
    await loadWorklet(context);
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    throw new MicrophoneError(`the audio capture module did not load: ${(error as Error).message}`);
  }
  const source = context.createMediaStreamSource(stream);
  const tap = new AudioWorkletNode(context, 'hearth-voice-capture', {
    numberOfInputs: 1,
    numberOfOutputs: 0,
    channelCount: 1,
    channelCountMode: 'explicit',
  });
  const resampler = createResampler(context.sampleRate, VOICE_INPUT_RATE);
  const framer = createFramer(FRAME_SAMPLES);
  let open = true;
  tap.port.onmessage = (event: MessageEvent<Float32Array>) => {
    if (!open) return;
    onLevel(rmsOf(event.data));
    for (const frame of framer.push(floatToPcm16(resampler.push(event.data)))) onFrame(frame);
  };
  source.connect(tap);
  return {
    stop() {
      if (!open) return undefined;
      open = false;
      tap.port.postMessage('stop');
      tap.port.onmessage = null;
      source.disconnect();
      for (const track of stream.getTracks()) track.stop();
      return framer.flush();
    },
  };
}
