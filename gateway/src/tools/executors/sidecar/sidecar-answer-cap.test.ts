/**
 * A hostile sandbox-executor on 127.0.0.1 cannot make the gateway hold more of its `/exec`
 * answer than the output the call asked for (escaped as JSON) and a little more: an answer
 * without end is cut as it streams, and the call fails saying so.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../observability/logger.ts';
import { createSidecarExecutor, execAnswerCap } from './sidecar-executor.ts';

describe('a sidecar answering /exec without end', () => {
  let server: Server;
  let url: string;
  const cuts: number[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url === '/health')
          return res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"status":"ok","backend":"process","isolation":"process-group"}');
        if (Buffer.concat(chunks).toString() === '{}')
          return res.writeHead(422, { 'content-type': 'application/json' }).end('{"detail":"x"}');
        res.writeHead(200, { 'content-type': 'application/json' }).write('{"stdout":"');
        const pad = Buffer.alloc(64 * 1024, 0x61);
        let written = 0;
        const pump = () => {
          while (!res.destroyed && res.write(pad)) written += pad.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        res.once('close', () => cuts.push(written));
        pump();
        return undefined;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is cut at the cap, and the call fails naming it', async () => {
    const executor = await createSidecarExecutor({
      url,
      token: 'a-token-for-the-hostile-sidecar',
      fetch,
      logger: silentLogger(),
    });
    const started = Date.now();
    await expect(
      executor.run({ command: 'echo hi', timeoutSeconds: 30, env: {}, maxOutputBytes: 64 * 1024 }),
    ).rejects.toThrow(
      `the sandbox-executor failed: the sidecar's /exec answer is larger than ${execAnswerCap(64 * 1024)} bytes`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect.poll(() => cuts.length).toBe(1);
    expect(cuts[0]).toBeLessThan(16 * execAnswerCap(64 * 1024));
  });
});
