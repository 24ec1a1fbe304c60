/**
 * Voice cloning: speaking in a voice learnt from reference recordings. None of the engines
 * voice-runtime.ts runs can: Piper speaks the pretrained voices in the model cache, espeak-ng
 * its own built-in formant voices. `hearth voice clone` says so at once (this text) rather
 * than storing samples that nothing would read.
 */
export const TTS_ENGINES = [
  { name: 'piper', speaks: 'only the pretrained voices in the model cache' },
  { name: 'espeak-ng', speaks: 'only its own built-in voices' },
] as const;

export const NO_VOICE_CLONING = `no installed text-to-speech engine can clone a voice (${TTS_ENGINES.map(
  (engine) => `${engine.name} speaks ${engine.speaks}`,
).join(
  ', ',
)}); nothing was stored. hearth voice models pull --tts --voice <name> installs another Piper voice`;
