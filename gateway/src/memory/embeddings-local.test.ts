/**
 * Rule 4: "Embeddings always run locally. No embedding is sent to an external API." A real
 * gateway with the production embedder (transformers.js on onnxruntime, here over a tiny model
 * written to disk): chat turns are embedded, semantic memory becomes available, and the only
 * connections the process opens are to this machine (the test's own requests and the fake LLM).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { monitorEgress } from './embedder/testing/egress-monitor.ts';
import { TINY_MODEL_ID, writeTinyModel } from './embedder/testing/tiny-model.ts';
import { createTransformersEmbedder } from './embedder/transformers-embedder.ts';
import { featureOffReason } from '../models/optional-packages.ts';

const LOOPBACK =
  /^(https?:\/\/)?(127\.\d+\.\d+\.\d+|\[?::1\]?|localhost|::ffff:127\.\d+\.\d+\.\d+)(:\d+)?(\/|$)/;

/** Without the optional embeddings feature (`hearth features add embeddings`) there is no ONNX Runtime. */
const embeddingsOff = featureOffReason('embeddings') ?? undefined;
const skipped = embeddingsOff ? ` (skipped: ${embeddingsOff})` : '';

describe.skipIf(embeddingsOff !== undefined)(`embeddings on a real gateway${skipped}`, () => {
  let fake: FakeLlmServer;
  let gw: TestGateway;
  let modelDir: string;
  beforeAll(async () => {
    fake = await createFakeLlmServer();
    modelDir = await mkdtemp(join(tmpdir(), 'hearth-local-embed-'));
    await writeTinyModel({ modelDir, dimensions: 16 });
    gw = await startTestGateway({
      config: {
        models: { primary: 'gpt-4o', fallback: '', fast: '', local: '', openai_api_key: 'sk-test' },
      },
      providerEndpoints: { openai: `${fake.url}/v1` },
      embedder: createTransformersEmbedder({
        modelDir,
        modelId: TINY_MODEL_ID,
        logger: silentLogger(),
      }),
    });
    await gw.gateway.whenReady();
  }, 60_000);
  afterAll(async () => {
    await gw.close();
    await fake.close();
    await rm(modelDir, { recursive: true, force: true });
  });

  it('are made in process: turns are embedded and nothing leaves the machine', async () => {
    const egress = monitorEgress();
    try {
      for (const message of ['the cat sat on the mat', 'a dog sat on a rug']) {
        fake.reply({ text: 'ok' });
        const res = await fetch(`${gw.url}/api/v1/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message, session_id: 'local-embed' }),
        });
        expect(res.status).toBe(200);
      }
      const until = Date.now() + 20_000;
      let semantic: boolean | null = null;
      while (semantic !== true && Date.now() < until) {
        const status = (await (await fetch(`${gw.url}/api/v1/status`)).json()) as {
          memory: { semantic_available: boolean | null };
        };
        semantic = status.memory.semantic_available;
        if (semantic !== true) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(semantic).toBe(true);
    } finally {
      egress.stop();
    }
    expect(egress.events.length).toBeGreaterThan(0);
    const elsewhere = egress.events.filter(
      (event) => event.target !== 'pending' && !LOOPBACK.test(event.target),
    );
    expect(elsewhere).toEqual([]);
  }, 60_000);
});
