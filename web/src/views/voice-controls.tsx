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
  live: '',
  level: 0,
  spokenSamples: 0,
  spokenReplies: 0,
};

const SAID: Record<VoiceShown, string> = {
  checking: 'Voice: checking…',
  unavailable: 'Voice unavailable',
  ready: 'Voice ready',
  recording: 'Recording — press Push to talk again to send',
  listening: 'Listening — speak, then pause',
  processing: 'Working on what you said…',
  speaking: 'Speaking the reply…',
};

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
          aria-describedby="voice-status"
          disabled={off || voice.mode === 'continuous'}
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
