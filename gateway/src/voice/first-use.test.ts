import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import type { EngineAvailability, TextToSpeech } from './ports.ts';
import { connectVoice } from './testing/voice-client.ts';

/** A TTS engine that counts its availability probes; each probe takes `delayMs`. */
function countingTts(delayMs = 0) {
  const probes = { count: 0 };
  const tts: TextToSpeech = {
    name: 'counted-tts',
    availability: async (): Promise<EngineAvailability> => {
      probes.count += 1;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { available: true, engine: 'counted-tts', detail: 'test double' };
    },
    synthesize: () => Promise.resolve({ samples: new Int16Array(0), sampleRate: 16_000 }),
    close: () => Promise.resolve(),
  };
  return { tts, probes };
}

describe('voice engines are built on first use, not at start-up', () => {
  let gw: TestGateway | undefined;
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });

  it('probes no engine before /ready; the first voice request builds them and answers as before', async () => {
    const { tts, probes } = countingTts();
    gw = await startTestGateway({ voiceEngines: { tts } });
    await gw.gateway.whenReady();
    expect((await fetch(`${gw.url}/ready`)).status).toBe(200);
    expect(probes.count).toBe(0);

    const res = await fetch(`${gw.url}/api/v1/voice/status`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ runtime_available: true, tts_available: true });
    expect(probes.count).toBe(1);
    // Built once: later requests reuse the engines.
    await fetch(`${gw.url}/api/v1/voice/status`);
    expect(probes.count).toBe(1);
  });

  it('/api/v1/status builds them when it is the first to ask, and reports them', async () => {
    const { tts, probes } = countingTts();
    gw = await startTestGateway({ voiceEngines: { tts } });
    await gw.gateway.whenReady();
    const body = (await (await fetch(`${gw.url}/api/v1/status`)).json()) as {
      voice: { tts_available: boolean };
      backends: Record<string, string>;
    };
    expect(probes.count).toBe(1);
    expect(body.voice.tts_available).toBe(true);
    expect(body.backends.voice_tts).toBe('counted-tts');
  });

  it('/ws/voice holds the frames sent while the engines are built and answers them in order', async () => {
    const { tts, probes } = countingTts(300);
    gw = await startTestGateway({ voiceEngines: { tts } });
    await gw.gateway.whenReady();
    const client = await connectVoice(gw.url);
    try {
      client.send({ type: 'ping' });
      client.send('not json');
      client.send({ type: 'ping' });
      await client.waitFor((frame) => frame.type === 'pong', 20_000, 2);
      expect(probes.count).toBe(1);
      const answers = client.frames.filter((frame) => frame.type !== 'state');
      expect(answers.map((frame) => frame.type)).toEqual(['pong', 'error', 'pong']);
    } finally {
      await client.close();
    }
  });
});
