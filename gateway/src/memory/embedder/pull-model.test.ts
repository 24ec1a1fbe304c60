import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { modelFolder } from './model-files.ts';
import { pullEmbeddingModel, type PullProgress } from './pull-model.ts';
import { monitorEgress } from './testing/egress-monitor.ts';
import { writeTinyModel } from './testing/tiny-model.ts';
import { createTransformersEmbedder } from './transformers-embedder.ts';
import { featureOffReason } from '../../models/optional-packages.ts';

// No test here reaches the internet: the "hub" is always a server on 127.0.0.1 (a mirror
// of the tiny model, one that never answers) or a closed local port.

let root: string;
const servers: http.Server[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'hearth-pull-'));
});

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** A port nothing listens on. */
async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}

/** Serves `<folder>` as the hub does: GET /<org>/<name>/resolve/main/<file>. */
async function mirrorOf(sourceDir: string): Promise<{ host: string; requests: string[] }> {
  const requests: string[] = [];
  const host = await listen((request, response) => {
    const match = /^\/(.+?\/.+?)\/resolve\/main\/(.+)$/.exec(decodeURIComponent(request.url ?? ''));
    requests.push(request.url ?? '');
    if (!match?.[1] || !match[2]) {
      response.writeHead(404).end();
      return;
    }
    const file = path.join(modelFolder(sourceDir, match[1]), match[2]);
    stat(file).then(
      (info) => {
        response.writeHead(200, {
          'content-length': info.size,
          'content-type': 'application/octet-stream',
        });
        createReadStream(file).pipe(response);
      },
      () => response.writeHead(404).end(),
    );
  });
  return { host, requests };
}

/** Without the optional embeddings feature (`hearth features add embeddings`) there is no ONNX Runtime. */
const embeddingsOff = featureOffReason('embeddings') ?? undefined;
const skipped = embeddingsOff ? ` (skipped: ${embeddingsOff})` : '';

describe.skipIf(embeddingsOff !== undefined)(
  `pullEmbeddingModel (explicit \`hearth memory models pull\`)${skipped}`,
  () => {
    it('fails with a readable message, fast, when the hub is unreachable', async () => {
      const host = await closedPort();
      const modelDir = path.join(root, 'unreachable');
      const started = performance.now();
      const pull = pullEmbeddingModel({
        modelDir,
        modelId: 'hearth-test/unreachable',
        remoteHost: host,
        logger: silentLogger(),
      });
      await expect(pull).rejects.toThrow(
        `could not pull embedding model hearth-test/unreachable from ${host}: the host is unreachable (ECONNREFUSED)`,
      );
      expect(performance.now() - started).toBeLessThan(5_000);
      await expect(
        stat(path.join(modelFolder(modelDir, 'hearth-test/unreachable'), 'onnx')),
      ).rejects.toThrow();
    });

    it('names DNS failures of the default hub plainly (no request leaves: fetch is injected)', async () => {
      const egress = monitorEgress();
      const dnsFailure: typeof fetch = () =>
        Promise.reject(
          new TypeError('fetch failed', {
            cause: Object.assign(new Error('getaddrinfo ENOTFOUND huggingface.co'), {
              code: 'ENOTFOUND',
            }),
          }),
        );
      try {
        await expect(
          pullEmbeddingModel({
            modelDir: path.join(root, 'offline'),
            fetch: dnsFailure,
            logger: silentLogger(),
          }),
        ).rejects.toThrow(
          'could not pull embedding model Xenova/all-MiniLM-L6-v2 from https://huggingface.co/: the host is unreachable (ENOTFOUND)',
        );
      } finally {
        egress.stop();
      }
      expect(egress.events).toEqual([]);
    });

    it('does not hang when the hub accepts the connection but never answers', async () => {
      const host = await listen(() => {
        // Never respond.
      });
      const started = performance.now();
      await expect(
        pullEmbeddingModel({
          modelDir: path.join(root, 'silent'),
          modelId: 'hearth-test/silent',
          remoteHost: host,
          stallTimeoutMs: 300,
          logger: silentLogger(),
        }),
      ).rejects.toThrow(
        `could not pull embedding model hearth-test/silent from ${host}: no data from ${host} for 300 ms`,
      );
      expect(performance.now() - started).toBeLessThan(5_000);
    });

    it('reports a model the hub does not have', async () => {
      const { host } = await mirrorOf(path.join(root, 'empty-source'));
      await expect(
        pullEmbeddingModel({
          modelDir: path.join(root, 'missing'),
          modelId: 'hearth-test/no-such-model',
          remoteHost: host,
          logger: silentLogger(),
        }),
      ).rejects.toThrow(
        /could not pull embedding model hearth-test\/no-such-model from .*: .*(locate|not found)/i,
      );
    });

    it('downloads into the cache layout the local-only embedder then loads, with progress', async () => {
      const source = path.join(root, 'hub');
      const tiny = await writeTinyModel({ modelDir: source, modelId: 'hearth-test/pulled' });
      const mirror = await mirrorOf(source);
      const modelDir = path.join(root, 'cache');
      const progress: PullProgress[] = [];
      const egress = monitorEgress();
      let pulled;
      try {
        pulled = await pullEmbeddingModel({
          modelDir,
          modelId: tiny.modelId,
          remoteHost: mirror.host,
          onProgress: (event) => progress.push(event),
          logger: silentLogger(),
        });
      } finally {
        egress.stop();
      }
      expect(pulled).toMatchObject({ modelId: tiny.modelId, dtype: 'fp32', dimensions: 16 });
      expect(pulled.folder).toBe(modelFolder(modelDir, tiny.modelId));
      for (const file of [
        'config.json',
        'tokenizer.json',
        'tokenizer_config.json',
        'onnx/model.onnx',
      ]) {
        expect((await stat(path.join(pulled.folder, file))).isFile()).toBe(true);
        expect(progress).toContainEqual({ status: 'file-done', file });
      }
      expect(
        progress.some(
          (event) => event.status === 'file-progress' && event.file === 'onnx/model.onnx',
        ),
      ).toBe(true);
      const totals = progress.filter((event) => event.status === 'total');
      expect(totals.at(-1)?.percent).toBeCloseTo(100, 0);
      // Every request went to the mirror it was given, and only then.
      expect(egress.events.length).toBeGreaterThan(0);
      expect(egress.events.every((event) => event.target.includes('127.0.0.1'))).toBe(true);

      // The pull left transformers locked down again: the embedder loads with no network at all.
      const requestsBefore = mirror.requests.length;
      const embedder = createTransformersEmbedder({
        modelDir,
        modelId: tiny.modelId,
        logger: silentLogger(),
      });
      const [vector] = await embedder.embed(['the cat sat on the mat']);
      expect(embedder.state).toBe('available');
      expect(vector).toHaveLength(16);
      expect(mirror.requests.length).toBe(requestsBefore);
      await embedder.close();
    });

    it('a failed pull leaves the previous model in place and no staging folder behind', async () => {
      const modelDir = path.join(root, 'keep');
      const previous = await writeTinyModel({ modelDir, modelId: 'hearth-test/keep' });
      const before = await readFile(path.join(previous.folder, 'onnx', 'model.onnx'));
      await expect(
        pullEmbeddingModel({
          modelDir,
          modelId: previous.modelId,
          remoteHost: await closedPort(),
          logger: silentLogger(),
        }),
      ).rejects.toThrow(/unreachable/);
      expect(await readFile(path.join(previous.folder, 'onnx', 'model.onnx'))).toEqual(before);
      expect(await readdir(modelDir)).toEqual(['hearth-test']);
    });

    it('re-downloads over a corrupt model instead of trusting it', async () => {
      const source = path.join(root, 'hub-repair');
      const tiny = await writeTinyModel({ modelDir: source, modelId: 'hearth-test/repair' });
      const mirror = await mirrorOf(source);
      const modelDir = path.join(root, 'repair');
      const broken = await writeTinyModel({ modelDir, modelId: tiny.modelId });
      await writeFile(path.join(broken.folder, 'onnx', 'model.onnx'), 'truncated');

      const pulled = await pullEmbeddingModel({
        modelDir,
        modelId: tiny.modelId,
        remoteHost: mirror.host,
        logger: silentLogger(),
      });
      expect(pulled.dimensions).toBe(16);
      expect(mirror.requests.some((url) => url.endsWith('/onnx/model.onnx'))).toBe(true);
      expect(await readdir(modelDir)).toEqual(['hearth-test']);
      const embedder = createTransformersEmbedder({
        modelDir,
        modelId: tiny.modelId,
        logger: silentLogger(),
      });
      expect(await embedder.embed(['a dog in the garden'])).toHaveLength(1);
      await embedder.close();
    });
  },
);
