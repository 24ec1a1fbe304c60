import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from './ports.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { DEFAULT_HEAP_LIMIT_MB, DEFAULT_YOUNG_MB } from './command-analysis/command-analyser.ts';

/** The worker="command-analysis" series of one metric in the Prometheus text; null when absent. */
async function workerSeries(bed: ChatTestBed, name: string): Promise<number | null> {
  const text = await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text();
  const match = new RegExp(`^${name}\\{worker="command-analysis"\\} (\\S+)$`, 'm').exec(text);
  return match?.[1] === undefined ? null : Number(match[1]);
}

describe('the command-analysis worker in the metrics', () => {
  let bed: ChatTestBed;
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());

  it('shows its heap once a gated command was analysed, within the worker’s limit', async () => {
    // No command analysed yet: no worker, no series.
    expect(await workerSeries(bed, 'nodejs_worker_heap_total_bytes')).toBeNull();
    bed.fake.reply(
      { toolCalls: [{ name: 'shell', arguments: { command: 'echo analysed' } }] },
      { text: 'done' },
    );
    const turn = bed.post('/chat', { message: 'run it', session_id: 'worker-metrics' });
    let approval: PendingApproval | undefined;
    for (let i = 0; i < 500 && !approval; i += 1) {
      const { pending } = (await bed.get('/approvals/pending')).body as {
        pending: PendingApproval[];
      };
      approval = pending.find((p) => p.command === 'echo analysed');
      if (!approval) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(approval).toBeDefined();
    const total = await workerSeries(bed, 'nodejs_worker_heap_total_bytes');
    const used = await workerSeries(bed, 'nodejs_worker_heap_used_bytes');
    expect(used).toBeGreaterThan(0);
    expect(total).toBeGreaterThanOrEqual(used ?? 0);
    expect((total ?? 0) / 1_048_576).toBeLessThan(DEFAULT_HEAP_LIMIT_MB + DEFAULT_YOUNG_MB + 16);
    await bed.post(`/approvals/${approval!.id}/deny`, {});
    expect((await turn).status).toBe(200);
  });
});
