import { afterEach, describe, expect, it } from 'vitest';
import type { Database, OpenDatabase } from '../db/ports.ts';
import { openDatabase } from '../db/open-database.ts';
import { startChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

/** An openDatabase that waits until the test releases it, to observe the starting phase. */
function gatedOpen(): { open: OpenDatabase; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    release: () => release(),
    open: async (location): Promise<Database> => {
      await gate;
      return openDatabase(location);
    },
  };
}

describe('health and readiness', () => {
  let gw: TestGateway | undefined;
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });

  it('answers /health at once and /ready 503 until start-up is done, then 200', async () => {
    const gate = gatedOpen();
    gw = await startTestGateway({ openDatabase: gate.open });

    const health = await fetch(`${gw.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: 'ok',
      version: expect.any(String),
      agent: 'hearth',
    });

    const starting = await fetch(`${gw.url}/ready`);
    expect(starting.status).toBe(503);
    expect(await starting.json()).toEqual({
      ready: false,
      checks: { phase: false, runtime: false },
    });

    const status = (await (await fetch(`${gw.url}/api/v1/status`)).json()) as Record<
      string,
      unknown
    >;
    expect(status.status).toBe('starting');
    expect(status.init_phase).toBe('database');
    expect(status.runtime_available).toBe(false);

    gate.release();
    await gw.gateway.whenReady();
    const ready = await fetch(`${gw.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { phase: true, runtime: true } });
  });

  it('reports a failed start-up phase in /status and keeps /ready at 503', async () => {
    gw = await startTestGateway({
      openDatabase: () => Promise.reject(new Error('disk on fire')),
    });
    await expect(gw.gateway.whenReady()).rejects.toThrow('disk on fire');
    expect((await fetch(`${gw.url}/ready`)).status).toBe(503);
    const status = (await (await fetch(`${gw.url}/api/v1/status`)).json()) as Record<
      string,
      unknown
    >;
    expect(status).toMatchObject({
      status: 'failed',
      init_phase: 'failed',
      init_error: 'database: disk on fire',
    });
  });

  it('/ready makes no live call to any LLM provider', async () => {
    const bed = await startChatTestBed();
    try {
      for (let i = 0; i < 3; i += 1) {
        const ready = await fetch(`${bed.gw.url}/ready`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toEqual({ ready: true, checks: { phase: true, runtime: true } });
      }
      expect(bed.fake.requests).toEqual([]);
    } finally {
      await bed.close();
    }
  });
});
