/**
 * Rule 7: "A scheduled job runs daily at 03:00 and condenses sessions inactive for 30 or more
 * days (same as the CLI archive command)." GET /status `backends.memory_job` shows when the
 * running gateway's job next runs; that it condenses is shown by archival.test.ts and the CLI's
 * `hearth memory archive` (cli-ink/src/commands/memory/memory.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

describe('the daily memory job', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await gw.gateway.whenReady();
  });
  afterAll(() => gw.close());

  it('next runs at 03:00 local time, within the coming 24 hours', async () => {
    const before = Date.now();
    const body = (await (await fetch(`${gw.url}/api/v1/status`)).json()) as {
      backends: Record<string, string>;
    };
    const match = /^daily at 03:00 local time and at start; next (\S+)$/.exec(
      body.backends.memory_job ?? '',
    );
    expect(match, body.backends.memory_job).not.toBeNull();
    const next = new Date(match![1]!);
    expect([next.getHours(), next.getMinutes(), next.getSeconds()]).toEqual([3, 0, 0]);
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getTime() - before).toBeLessThanOrEqual(24 * 3_600_000);
  });
});
