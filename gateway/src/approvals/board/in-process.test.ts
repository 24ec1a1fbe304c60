import { describe, expect, it } from 'vitest';
import { makeApproval, PEER_TESTS, runApprovalBoardConformance } from './conformance.ts';
import { createInProcessApprovalBoard } from './in-process.ts';

runApprovalBoardConformance(
  'in-process',
  () => {
    const opened: ReturnType<typeof createInProcessApprovalBoard>[] = [];
    return Promise.resolve({
      open: (owner: string) => {
        const board = createInProcessApprovalBoard({ owner });
        opened.push(board);
        return Promise.resolve(board);
      },
      // One process: its board dies with it, so there is no lapsed owner to simulate.
      lapse: () => Promise.resolve(),
      close: async () => {
        for (const board of opened) await board.close();
      },
    });
  },
  {
    kind: 'in-process',
    skip: [{ reason: 'one process has no peer gateways (it is always alive)', tests: PEER_TESTS }],
  },
);

describe('in-process board specifics', () => {
  it('expires by the injected clock and lists its entries with their expiry', async () => {
    let now = 1_000_000;
    const board = createInProcessApprovalBoard({ now: () => now });
    const approval = makeApproval();
    await board.publish(approval, 5_000);
    expect(board.entries()).toEqual([{ approval, expiresAt: 1_005_000 }]);
    now += 5_000;
    expect(board.entries()).toEqual([]);
    expect(await board.claim(approval.id, 'approved')).toBeUndefined();
  });

  it('hands a verdict for another owner to nobody', async () => {
    const board = createInProcessApprovalBoard({ owner: 'gw-a' });
    const seen: unknown[] = [];
    board.onVerdict((verdict) => seen.push(verdict));
    await board.deliver('gw-b', { id: 'x', decision: 'approved', always_allowed: false });
    expect(seen).toEqual([]);
  });
});
