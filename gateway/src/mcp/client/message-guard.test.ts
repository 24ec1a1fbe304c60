import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it } from 'vitest';
import { GuardedTransport } from './message-guard.ts';

function innerTransport(): Transport & { deliver(n: number): void; fail(): void } {
  const inner: Transport & { deliver(n: number): void; fail(): void } = {
    start: () => Promise.resolve(),
    send: () => Promise.resolve(),
    close: () => Promise.resolve(),
    deliver(n) {
      for (let i = 0; i < n; i += 1)
        inner.onmessage?.({ jsonrpc: '2.0', method: 'notifications/message' });
    },
    fail: () => inner.onerror?.(new SyntaxError('not JSON')),
  };
  return inner;
}

describe('the flood guard in front of an external server', () => {
  it('passes messages and errors on within the limit', () => {
    let now = 0;
    const inner = innerTransport();
    const abuse: string[] = [];
    const guarded = new GuardedTransport(
      inner,
      { maxEvents: 10, windowMs: 1_000 },
      (r) => abuse.push(r),
      () => now,
    );
    let seen = 0;
    guarded.onmessage = () => (seen += 1);
    guarded.onerror = () => (seen += 1);
    inner.deliver(5);
    inner.fail();
    now = 2_000; // a new window
    inner.deliver(10);
    expect(seen).toBe(16);
    expect(abuse).toEqual([]);
  });

  it('reports a flood once and passes nothing more (garbage counts too)', () => {
    const inner = innerTransport();
    const abuse: string[] = [];
    const guarded = new GuardedTransport(
      inner,
      { maxEvents: 10, windowMs: 1_000 },
      (r) => abuse.push(r),
      () => 0,
    );
    let seen = 0;
    guarded.onmessage = () => (seen += 1);
    inner.deliver(8);
    for (let i = 0; i < 100; i += 1) inner.fail();
    inner.deliver(100);
    expect(seen).toBe(8);
    expect(abuse).toEqual(['flooding: more than 10 messages within 1000 ms']);
  });
});
