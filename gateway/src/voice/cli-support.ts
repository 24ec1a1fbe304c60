/**
 * What `hearth voice …` uses of the gateway package without loading the gateway: WAV and PCM
 * helpers (for `--file` and the reply audio) and the model pulls.
 */
export { bytesToPcm16, decodeWav, encodeWav, pcm16ToBytes, resample } from './audio/pcm.ts';
export { pullPiperVoice, pullWhisperModel } from './pull-voice-models.ts';
export { INPUT_SAMPLE_RATE } from './ports.ts';
export { NO_VOICE_CLONING } from './tts/voice-cloning.ts';
