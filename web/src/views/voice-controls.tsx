import { useEffect, useState } from 'preact/hooks';
import {
  createVoiceController,
  type VoiceMessages,
  type VoiceShown,
  type VoiceSnapshot,
} from '../voice/controller.ts';
import '../voice/voice.css';

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
  const { append } = props;
  const [controller] = useState(() => createVoiceController({ append }));
  const [voice, setVoice] = useState<VoiceSnapshot>(controller.snapshot);
  useEffect(() => {
    const unsubscribe = controller.subscribe(setVoice);
    controller.init();
    return () => {
      unsubscribe();
      controller.close();
    };
  }, [controller]);

  const off = voice.shown === 'unavailable' || voice.shown === 'checking';
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
          onClick={() => controller.togglePtt()}
        >
          <span aria-hidden="true">●</span> Push to talk
        </button>
        <button
          type="button"
          class="voice-continuous"
          aria-pressed={voice.mode === 'continuous'}
          aria-describedby={voice.continuousReason ? 'voice-continuous-reason' : 'voice-status'}
          disabled={off || voice.mode === 'ptt' || voice.continuousReason !== undefined}
          onClick={() => controller.toggleContinuous()}
        >
          Listen continuously
        </button>
        {voice.shown === 'speaking' ? (
          <button type="button" class="voice-hush" onClick={() => controller.stopSpeaking()}>
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
