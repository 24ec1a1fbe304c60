/**
 * The voice pipeline's ports: audio in → VAD → STT → (wake detector) → turn → TTS. Each has
 * adapters in a sibling folder and a conformance suite every adapter passes. Audio inside the
 * pipeline is 16 kHz mono PCM16 (`Int16Array`) unless a type says otherwise.
 */

/** The pipeline's sample rate for speech input. */
export const INPUT_SAMPLE_RATE = 16_000;

/** Mono PCM16 audio at a stated rate. */
export interface Pcm16Audio {
  samples: Int16Array;
  sampleRate: number;
}

/** Whether an engine can be used now, and why not when it cannot. */
export interface EngineAvailability {
  available: boolean;
  /** Which engine (`/status` backends); `none` when nothing is usable. */
  engine: string;
  /** Why the engine is unavailable, or what it loaded. */
  detail: string;
}

/** Audio in from the host: a running capture that yields 16 kHz mono PCM16 chunks. */
export interface AudioCapture {
  /** Chunks as they arrive; ends when the capture stops or its process exits. */
  readonly chunks: AsyncIterable<Int16Array>;
  stop(): Promise<void>;
}

export interface AudioInput {
  /** `arecord`, `sox`, `file`, or `none`. */
  readonly name: string;
  availability(): Promise<EngineAvailability>;
  /** Starts capturing; throws 503 when no input exists. */
  start(): Promise<AudioCapture>;
}

/** One speech segment a VAD found, in samples of the input. */
export interface SpeechSegment {
  start: number;
  end: number;
}

/**
 * Voice activity detection over a stream: feed frames of any length, get back the segments that
 * ended (a segment ends after enough trailing silence). `flush` ends an open segment.
 */
export interface VadStream {
  push(samples: Int16Array): Promise<SpeechSegment[]>;
  flush(): SpeechSegment[];
}

export interface Vad {
  /** `silero` or `energy`. */
  readonly name: string;
  availability(): Promise<EngineAvailability>;
  /** A fresh stream (each has its own model state). */
  stream(): Promise<VadStream>;
  /** Per-frame speech probability, for tests and tuning: one value per 512-sample frame. */
  probabilities(samples: Int16Array): Promise<number[]>;
  close(): Promise<void>;
}

export interface Transcript {
  text: string;
}

export interface SpeechToText {
  /** `whisper`, `none`, or a test double's name. */
  readonly name: string;
  /** Checks the model files (loads nothing). */
  availability(): Promise<EngineAvailability>;
  /** Transcribes 16 kHz mono PCM16; rejects with 503 when unavailable. */
  transcribe(audio: Int16Array, signal?: AbortSignal): Promise<Transcript>;
  close(): Promise<void>;
}

export interface TextToSpeech {
  /** `piper`, `espeak-ng` or `none`. */
  readonly name: string;
  availability(): Promise<EngineAvailability>;
  /** Synthesises one piece of text to mono PCM16 at the engine's rate. */
  synthesize(text: string, signal?: AbortSignal): Promise<Pcm16Audio>;
  close(): Promise<void>;
}

export interface WakeDetection {
  detected: boolean;
  /** 0..1 */
  score: number;
}

/** Decides whether a speech segment (16 kHz PCM16) contains the wake word. */
export interface WakeDetector {
  /** `openwakeword`, `phrase` or `none`. */
  readonly name: string;
  availability(): Promise<EngineAvailability>;
  detect(segment: Int16Array, signal?: AbortSignal): Promise<WakeDetection>;
  close(): Promise<void>;
}

/** The engines a voice area runs with (tests inject doubles for some). */
export interface VoiceEngines {
  input: AudioInput;
  vad: Vad;
  stt: SpeechToText;
  tts: TextToSpeech;
  wake: WakeDetector;
}
