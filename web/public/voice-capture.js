// Hearth's microphone tap, an AudioWorklet module served from the gateway's own origin (the
// page's CSP allows scripts from 'self' only, so it cannot be a blob: or data: URL). It copies
// the first input channel and posts it to the page in blocks of about 2048 samples (~43 ms at
// 48 kHz); the page resamples to 16 kHz PCM16 and sends it on /ws/voice.
const BLOCK = 2048;

class VoiceCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.block = new Float32Array(BLOCK);
    this.filled = 0;
    this.running = true;
    this.port.onmessage = (event) => {
      if (event.data === 'stop') this.running = false;
    };
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel) {
      let offset = 0;
      while (offset < channel.length) {
        const count = Math.min(channel.length - offset, BLOCK - this.filled);
        this.block.set(channel.subarray(offset, offset + count), this.filled);
        this.filled += count;
        offset += count;
        if (this.filled === BLOCK) {
          this.port.postMessage(this.block, [this.block.buffer]);
          this.block = new Float32Array(BLOCK);
          this.filled = 0;
        }
      }
    }
    return this.running;
  }
}

registerProcessor('hearth-voice-capture', VoiceCapture);
