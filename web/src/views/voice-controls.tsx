import { useEffect, useRef, useState } from 'preact/hooks';
import type {
  VoiceController,
  VoiceMessages,
  VoiceShown,
  VoiceSnapshot,
} from '../voice/controller.ts';
import '../voice/voice.css';

const CHECKING: VoiceSnapshot = {
  shown: 'checking',
  mode: 'idle',
  busy: false,
  live: '',
  level: 0,
  spokenSamples: 0,
  spokenReplies: 0,
};

const SAID: Record<VoiceShown, string> = {
  checking: 'Voice: checking…',
  unavailable: 'Voice unavailable',
  ready: 'Voice ready — press Push to talk, or hold Space',
  recording: 'Recording — press Push to talk again to send',
  listening: 'Listening — speak, then pause',
  processing: 'Working on what you said…',
  speaking: 'Speaking the reply…',
};

/** Where Space types or presses something itself: the shortcut leaves it alone there. */
function spaceIsTaken(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable ||
      target.closest('input, textarea, select, button, a[href], summary, [role="button"]') !== null)
  );
}

/**
 * Holding Space (outside a text field or another control) records; letting go sends. The
 * toggle button stays the way for touch, switch and screen-reader users.
 */
function useHoldSpace(controller: VoiceController | undefined, voice: VoiceSnapshot): void {
  const state = useRef({ voice, held: false });
  state.current.voice = voice;
  useEffect(() => {
    if (!controller) return undefined;
    const down = (event: KeyboardEvent) => {
      if (event.code !== 'Space' || spaceIsTaken(event.target)) return;
      event.preventDefault();
      const { voice: now } = state.current;
      if (event.repeat || state.current.held || now.mode !== 'idle' || now.busy) return;
      if (now.shown === 'unavailable' || now.shown === 'checking') return;
      state.current.held = true;
      controller.togglePtt();
    };
    const up = (event: KeyboardEvent) => {
      if (event.code !== 'Space' || !state.current.held) return;
      event.preventDefault();
      state.current.held = false;
      if (state.current.voice.mode === 'ptt') controller.togglePtt();
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, [controller]);
}

/**
 * Push-to-talk and continuous listening from this browser's microphone over `/ws/voice`, the
 * state it is in (unavailable with the reason, ready, recording, listening, processing,
 * speaking), and the spoken reply. The transcript and the reply join the conversation.
 */
export function VoiceControls(props: VoiceMessages) {
  const messages = useRef(props);
  messages.current = props;
  const [controller, setController] = useState<VoiceController>();
  const [voice, setVoice] = useState<VoiceSnapshot>(CHECKING);
  useEffect(() => {
    // The capture and playback code loads after the first paint, off the main chunk.
    let gone = false;
    let made: VoiceController | undefined;
    void import('../voice/controller.ts').then(
      ({ createVoiceController }) => {
        if (gone) return;
        made = createVoiceController({ append: (message) => messages.current.append(message) });
        made.subscribe(setVoice);
        made.init();
        setController(made);
      },
      (error: unknown) =>
        setVoice({
          ...CHECKING,
          shown: 'unavailable',
          reason: `the voice code did not load: ${(error as Error).message}`,
        }),
    );
    return () => {
      gone = true;
      made?.close();
    };
  }, []);

  useHoldSpace(controller, voice);

  const off = !controller || voice.shown === 'unavailable' || voice.shown === 'checking';
  const capturing = voice.mode !== 'idle';
  return (
    <div
      class={`voice voice-${voice.shown}`}
      role="group"
      aria-label="Voice"
      data-state={voice.shown}
      data-spoken-samples={voice.spokenSamples}
      data-spoken-replies={voice.spokenReplies}
    >
      <div class="voice-buttons">
        <button
          type="button"
          class="voice-ptt"
          aria-pressed={voice.mode === 'ptt'}
          aria-keyshortcuts="Space"
          aria-describedby="voice-status"
          disabled={off || voice.mode === 'continuous' || (voice.busy && voice.mode === 'idle')}
          onClick={() => controller?.togglePtt()}
        >
          <span aria-hidden="true">●</span> Push to talk
        </button>
        <button
          type="button"
          class="voice-continuous"
          aria-pressed={voice.mode === 'continuous'}
          aria-describedby={voice.continuousReason ? 'voice-continuous-reason' : 'voice-status'}
          disabled={off || voice.mode === 'ptt' || voice.continuousReason !== undefined}
          onClick={() => controller?.toggleContinuous()}
        >
          Listen continuously
        </button>
        {voice.shown === 'speaking' ? (
          <button type="button" class="voice-hush" onClick={() => controller?.stopSpeaking()}>
            Stop speaking
          </button>
        ) : null}
        {capturing ? (
          <meter
            class="voice-level"
            min={0}
            max={1}
            value={voice.level}
            aria-label="Microphone level"
          />
        ) : null}
      </div>
      <p id="voice-status" class="voice-status" role="status">
        {SAID[voice.shown]}
        {voice.reason ? `: ${voice.reason}` : ''}
      </p>
      {voice.continuousReason && !off ? (
        <p id="voice-continuous-reason" class="muted">
          Continuous listening is unavailable: {voice.continuousReason}
        </p>
      ) : null}
      {voice.live ? (
        <p class="voice-live" aria-hidden="true">
          {voice.live}
        </p>
      ) : null}
      {voice.notice ? <p class="muted">{voice.notice}</p> : null}
      {voice.speechNote && !off ? <p class="muted voice-speech-note">{voice.speechNote}</p> : null}
      {voice.error ? (
        <p class="error" role="alert">
          {voice.error}
        </p>
      ) : null}
    </div>
  );
}
