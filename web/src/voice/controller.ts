import { api, ApiError, openSocket } from '../api.ts';
import {
  browserAudioMissing,
  MicrophoneError,
  microphonePermission,
  openMicrophone,
  type Microphone,
} from './microphone.ts';
import { base64ToPcm16, pcm16ToBase64, VOICE_INPUT_RATE } from './pcm.ts';
import { createPlayer, type Player } from './player.ts';

/** What the controls show: the spec's push-to-talk states plus listening, processing, speaking. */
export type VoiceShown =
  'checking' | 'unavailable' | 'ready' | 'recording' | 'listening' | 'processing' | 'speaking';

/** The gateway's phase of this socket's conversation (`state` frames). */
type Phase = 'idle' | 'recording' | 'listening' | 'transcribing' | 'responding' | 'speaking';

export interface VoiceSnapshot {
  shown: VoiceShown;
  /** Why voice cannot be used (shown with `unavailable`). */
  reason?: string;
  /** Why continuous listening cannot be used while push-to-talk can. */
  continuousReason?: string;
  /** Why replies are not spoken (no text-to-speech engine, or none sent for the last reply). */
  speechNote?: string;
  mode: 'idle' | 'ptt' | 'continuous';
  /** The gateway is still answering the last turn: push-to-talk waits for it. */
  busy: boolean;
  /** The last problem (a refused frame, a closed socket, a microphone error). */
  error?: string;
  /** Said after a turn: "nothing heard". */
  notice?: string;
  /** The reply as it streams, before it joins the conversation. */
  live: string;
  /** The microphone's level, 0..1. */
  level: number;
  /** Speech samples scheduled for playback, and the replies that had any (for tests too). */
  spokenSamples: number;
  spokenReplies: number;
}

export interface VoiceMessages {
  append: (message: { role: 'user' | 'assistant'; text: string }) => void;
}

type Frame = { type: string } & Record<string, unknown>;

const RETRY_MS = 2_000;

/**
 * The browser side of `/ws/voice`: checks what voice needs (a secure context, the microphone,
 * the gateway's speech-to-text), runs push-to-talk and continuous listening from the
 * microphone, puts the transcript and the reply into the conversation, and plays the speech
 * the gateway sends. Audio captured before the gateway confirms recording or listening is held
 * and sent in order once it does.
 */
export function createVoiceController(messages: VoiceMessages) {
  let snapshot: VoiceSnapshot = {
    shown: 'checking',
    mode: 'idle',
    busy: false,
    live: '',
    level: 0,
    spokenSamples: 0,
    spokenReplies: 0,
  };
  const listeners = new Set<(next: VoiceSnapshot) => void>();
  let phase: Phase = 'idle';
  let unavailable: string | undefined;
  let denied: string | undefined;
  let socket: WebSocket | undefined;
  let connecting: Promise<WebSocket> | undefined;
  let context: AudioContext | undefined;
  let player: Player | undefined;
  let microphone: Microphone | undefined;
  /** Audio held until the gateway confirms; undefined once it has (frames then go straight out). */
  let held: Int16Array[] | undefined;
  /** The stop frame to send once the gateway confirms (the user stopped before it did). */
  let stopWhenConfirmed: 'ptt_stop' | 'continuous_stop' | undefined;
  let replyHadSpeech = false;
  let speechExpected = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  /** `phase` is this page's expectation, not yet confirmed by a state frame. */
  let guessed = false;
  let configLoaded = false;

  function update(change: Partial<VoiceSnapshot>): void {
    const next = { ...snapshot, ...change };
    next.busy = phase === 'transcribing' || phase === 'responding' || phase === 'speaking';
    next.shown = shownOf(next);
    snapshot = next;
    for (const listener of listeners) listener(snapshot);
  }

  function shownOf(next: VoiceSnapshot): VoiceShown {
    const reason = unavailable ?? denied;
    next.reason = reason;
    if (reason !== undefined) return 'unavailable';
    if (!configLoaded) return 'checking';
    if (player?.playing || phase === 'speaking') return 'speaking';
    if (phase === 'transcribing' || phase === 'responding') return 'processing';
    if (next.mode === 'ptt') return 'recording';
    if (next.mode === 'continuous') return 'listening';
    return 'ready';
  }

  async function loadConfig(): Promise<void> {
    const missing = browserAudioMissing();
    if (missing) {
      unavailable = missing;
      configLoaded = true;
      return update({});
    }
    try {
      const config = await api('GET', '/voice/config');
      if (!config.engines) throw new ApiError(503, 'voice is still starting');
      const { stt, vad, tts } = config.engines;
      configLoaded = true;
      unavailable = stt.available ? undefined : `no speech-to-text engine: ${stt.detail}`;
      speechExpected = tts.available;
      update({
        continuousReason: vad.available ? undefined : `no voice activity detection: ${vad.detail}`,
        speechNote: tts.available
          ? undefined
          : `Replies are not spoken: no text-to-speech engine (${tts.detail}).`,
      });
    } catch (error) {
      if (closed) return;
      if (error instanceof ApiError && error.status === 503) {
        retry = setTimeout(() => void loadConfig(), RETRY_MS);
        return;
      }
      configLoaded = true;
      unavailable = `voice status could not be read: ${(error as Error).message}`;
      update({});
    }
  }

  async function watchPermission(): Promise<void> {
    const status = await microphonePermission();
    if (!status) return;
    const apply = () => {
      denied =
        status.state === 'denied'
          ? 'microphone permission denied: allow the microphone for this site in the browser'
          : undefined;
      update({});
    };
    status.onchange = apply;
    if (status.state === 'denied') apply();
  }

  function send(frame: Frame): void {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  function sendAudio(samples: Int16Array): void {
    send({ type: 'audio', data: pcm16ToBase64(samples), sample_rate: VOICE_INPUT_RATE });
  }

  function onFrame(samples: Int16Array): void {
    // Half duplex in continuous mode: the reply being played is not heard as the next turn.
    if (snapshot.mode === 'continuous' && player?.playing) return;
    if (held) held.push(samples);
    else sendAudio(samples);
  }

  let lastLevelAt = 0;
  function onLevel(level: number): void {
    const now = performance.now();
    if (now - lastLevelAt < 100) return;
    lastLevelAt = now;
    update({ level: Math.min(1, level * 4) });
  }

  function connect(): Promise<WebSocket> {
    if (socket?.readyState === WebSocket.OPEN) return Promise.resolve(socket);
    connecting ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = openSocket('/ws/voice');
      ws.onopen = () => {
        socket = ws;
        connecting = undefined;
        resolve(ws);
      };
      ws.onclose = () => {
        connecting = undefined;
        if (socket === ws) socket = undefined;
        reject(new Error('could not connect to the voice socket'));
        if (closed) return;
        phase = 'idle';
        if (snapshot.mode !== 'idle') {
          endCapture();
          update({ mode: 'idle', error: 'the voice connection closed' });
        } else update({});
      };
      ws.onmessage = (event: MessageEvent<string>) => {
        try {
          receive(JSON.parse(event.data) as Frame);
        } catch {
          // Not a frame of the protocol: nothing to show.
        }
      };
    });
    return connecting;
  }

  function confirm(): void {
    const pending = held ?? [];
    held = undefined;
    for (const samples of pending) sendAudio(samples);
    if (stopWhenConfirmed) send({ type: stopWhenConfirmed });
    stopWhenConfirmed = undefined;
  }

  function receive(frame: Frame): void {
    switch (frame.type) {
      case 'state': {
        phase = (frame.state as Phase | undefined) ?? 'idle';
        guessed = false;
        if (frame.ptt === 'unavailable' && !unavailable)
          unavailable = 'no speech-to-text engine on the gateway';
        if (held && (phase === 'recording' || phase === 'listening')) confirm();
        update({});
        return;
      }
      case 'transcript': {
        const text = typeof frame.text === 'string' ? frame.text : '';
        replyHadSpeech = false;
        if (text === '') return update({ notice: 'Nothing was heard.' });
        messages.append({ role: 'user', text });
        return update({ notice: undefined, live: '' });
      }
      case 'response_chunk':
        return update({ live: snapshot.live + (typeof frame.text === 'string' ? frame.text : '') });
      case 'response_done':
        messages.append({
          role: 'assistant',
          text: typeof frame.text === 'string' ? frame.text : '',
        });
        return update({ live: '' });
      case 'tts_audio': {
        const samples = typeof frame.data === 'string' ? base64ToPcm16(frame.data) : undefined;
        const rate = Number(frame.sample_rate);
        if (samples && samples.length > 0 && rate >= 3_000 && rate <= 192_000 && player) {
          player.enqueue(samples, rate);
          if (!replyHadSpeech) update({ spokenReplies: snapshot.spokenReplies + 1 });
          replyHadSpeech = true;
        }
        if (frame.final === true && !replyHadSpeech && speechExpected)
          update({ speechNote: 'The gateway sent no speech for this reply.' });
        else if (frame.final === true && speechExpected) update({ speechNote: undefined });
        return;
      }
      case 'error': {
        const detail = typeof frame.detail === 'string' ? frame.detail : 'voice error';
        if (guessed) {
          // The stop was refused: the gateway is not transcribing after all.
          phase = 'idle';
          guessed = false;
        }
        if (held !== undefined) {
          // The gateway refused to start: nothing is recording.
          endCapture();
          update({ mode: 'idle', error: detail });
        } else update({ error: detail });
        return;
      }
      default:
    }
  }

  function audioContext(): AudioContext {
    context ??= new AudioContext();
    player ??= createPlayer(
      context,
      () => update({}),
      (samples) => update({ spokenSamples: snapshot.spokenSamples + samples }),
    );
    return context;
  }

  /** The mode now (read after an await: it may have changed meanwhile). */
  function modeNow(): VoiceSnapshot['mode'] {
    return snapshot.mode;
  }

  function endCapture(): Int16Array | undefined {
    const rest = microphone?.stop();
    microphone = undefined;
    held = undefined;
    stopWhenConfirmed = undefined;
    return rest;
  }

  async function start(mode: 'ptt' | 'continuous'): Promise<void> {
    if (snapshot.shown === 'unavailable' || snapshot.mode !== 'idle') return;
    if (mode === 'ptt' && snapshot.busy) return;
    // Talking over the reply cuts it short.
    player?.stop();
    // Made and resumed inside the click, so the browser lets it play the reply.
    const ctx = audioContext();
    void ctx.resume();
    held = [];
    update({ mode, error: undefined, notice: undefined, level: 0 });
    try {
      await connect();
      microphone = await openMicrophone(ctx, onFrame, onLevel);
    } catch (error) {
      endCapture();
      // Denied for good (the browser remembers it): unavailable until the permission changes.
      // Only dismissed: the next press asks again, so the button stays.
      if (error instanceof MicrophoneError && error.denied)
        if ((await microphonePermission())?.state === 'denied') denied = error.message;
      return update({ mode: 'idle', error: (error as Error).message });
    }
    // Stopped (or the socket closed) while the microphone was opening: nothing to start.
    if (modeNow() !== mode) {
      endCapture();
      return;
    }
    send(mode === 'ptt' ? { type: 'ptt_start' } : { type: 'continuous_start', wake: false });
  }

  function stop(): void {
    const mode = snapshot.mode;
    if (mode === 'idle') return;
    const waiting = held !== undefined;
    const rest = microphone?.stop();
    microphone = undefined;
    if (waiting) {
      if (rest) held!.push(rest);
      stopWhenConfirmed = mode === 'ptt' ? 'ptt_stop' : 'continuous_stop';
    } else {
      if (rest && mode === 'ptt') sendAudio(rest);
      send({ type: mode === 'ptt' ? 'ptt_stop' : 'continuous_stop' });
    }
    // The gateway transcribes next (its state frame follows): no flash of "ready" before it.
    if (mode === 'ptt') {
      phase = 'transcribing';
      guessed = true;
    }
    update({ mode: 'idle', level: 0 });
  }

  return {
    get snapshot() {
      return snapshot;
    },
    subscribe(listener: (next: VoiceSnapshot) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    init(): void {
      void loadConfig();
      void watchPermission();
    },
    /** The push-to-talk toggle: starts recording, or sends what was recorded. */
    togglePtt(): void {
      if (snapshot.mode === 'ptt') stop();
      else void start('ptt');
    },
    toggleContinuous(): void {
      if (snapshot.mode === 'continuous') stop();
      else void start('continuous');
    },
    stopSpeaking(): void {
      player?.stop();
    },
    close(): void {
      closed = true;
      clearTimeout(retry);
      endCapture();
      player?.stop();
      socket?.close();
      void context?.close();
    },
  };
}

export type VoiceController = ReturnType<typeof createVoiceController>;
