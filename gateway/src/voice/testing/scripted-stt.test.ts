import { runSttConformance } from '../stt/stt-conformance.ts';
import { hasProgram, espeakSpeech16k } from './sox.ts';
import { createScriptedStt } from './scripted-stt.ts';

const missing =
  !hasProgram('espeak-ng') || !hasProgram('sox') ? 'espeak-ng or sox is not installed' : undefined;

// The double the pipeline tests use behaves like a real engine at the port.
runSttConformance('scripted double', () => createScriptedStt(['turn on the lights']), {
  skip: missing,
  speech: () => ({ audio: espeakSpeech16k('Turn on the lights.'), words: ['turn', 'lights'] }),
});
