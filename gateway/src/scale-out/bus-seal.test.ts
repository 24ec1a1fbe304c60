import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { busKey, createBusSeal } from './bus-seal.ts';

const SECRET = 'a-cluster-secret-of-at-least-32-characters';

function sealAt(clock: { now: number }, secret = SECRET) {
  return createBusSeal({ key: busKey(secret), logger: silentLogger(), now: () => clock.now });
}

describe('sealed bus messages', () => {
  it('a sealed message opens once, on its own topic, with the key it was sealed with', () => {
    const clock = { now: 1_700_000_000_000 };
    const sender = sealAt(clock);
    const receiver = sealAt(clock);
    const message = sender.seal('hearth:ap:verdicts:gw-1', '{"id":"x"}');
    expect(receiver.open('hearth:ap:verdicts:gw-1', message)).toBe('{"id":"x"}');
    // The same message again is a replay.
    expect(receiver.open('hearth:ap:verdicts:gw-1', message)).toBeUndefined();
    expect(receiver.rejected()).toMatchObject({ replayed: 1 });
  });

  it('is refused on another topic, under another key, or without a MAC', () => {
    const clock = { now: 1_700_000_000_000 };
    const sender = sealAt(clock);
    const receiver = sealAt(clock);
    const message = sender.seal('hearth:ap:verdicts:gw-1', 'approved');
    expect(receiver.open('hearth:ap:verdicts:gw-2', message)).toBeUndefined();
    const stranger = sealAt(clock, 'another-secret-of-at-least-32-characters!');
    expect(receiver.open('t', stranger.seal('t', 'approved'))).toBeUndefined();
    const bare = { ...(JSON.parse(message) as Record<string, unknown>), m: undefined };
    expect(receiver.open('hearth:ap:verdicts:gw-1', JSON.stringify(bare))).toBeUndefined();
    expect(receiver.open('t', 'not json')).toBeUndefined();
    expect(receiver.open('t', '{"id":"x","decision":"approved"}')).toBeUndefined();
    expect(receiver.rejected()).toEqual({ unreadable: 3, bad_mac: 2, stale: 0, replayed: 0 });
  });

  it('a changed payload, time or nonce breaks the MAC', () => {
    const clock = { now: 1_700_000_000_000 };
    const seal = sealAt(clock);
    const message = JSON.parse(seal.seal('t', 'denied')) as Record<string, unknown>;
    for (const change of [{ p: 'approved' }, { t: clock.now + 1 }, { n: 'A'.repeat(22) }]) {
      expect(seal.open('t', JSON.stringify({ ...message, ...change }))).toBeUndefined();
    }
    expect(seal.rejected().bad_mac).toBe(3);
  });

  it('a message outside the window is stale, even when never seen before', () => {
    const clock = { now: 1_700_000_000_000 };
    const sender = sealAt(clock);
    const old = sender.seal('t', 'x');
    clock.now += 30_001;
    const receiver = sealAt(clock);
    expect(receiver.open('t', old)).toBeUndefined();
    expect(receiver.rejected().stale).toBe(1);
    // From the future (a clock far ahead) likewise.
    const ahead = sealAt({ now: clock.now + 30_001 });
    expect(receiver.open('t', ahead.seal('t', 'y'))).toBeUndefined();
    expect(receiver.rejected().stale).toBe(2);
  });

  it('a message replayed after the window is stale; its nonce need not be remembered', () => {
    const clock = { now: 1_700_000_000_000 };
    const seal = sealAt(clock);
    const message = seal.seal('t', 'x');
    expect(seal.open('t', message)).toBe('x');
    clock.now += 30_001;
    expect(seal.open('t', seal.seal('t', 'y'))).toBe('y');
    expect(seal.open('t', message)).toBeUndefined();
    expect(seal.rejected()).toMatchObject({ stale: 1, replayed: 0 });
  });

  it('a forger who knows the format but not the key cannot make an accepted MAC', () => {
    const clock = { now: 1_700_000_000_000 };
    const seal = sealAt(clock);
    // An HMAC under the raw secret (not the derived key) is still wrong.
    const p = 'approved';
    const n = 'B'.repeat(22);
    const m = createHmac('sha256', SECRET)
      .update(['msg', 't', String(clock.now), n, p].join('\n'))
      .digest('base64url');
    expect(seal.open('t', JSON.stringify({ v: 1, t: clock.now, n, p, m }))).toBeUndefined();
  });
});

describe('signed stored values', () => {
  it('verify under the same key name, any number of times', () => {
    const seal = sealAt({ now: 0 });
    const stored = seal.sign('hearth:ap:v:1', 'approved');
    expect(seal.verify('hearth:ap:v:1', stored)).toBe('approved');
    expect(seal.verify('hearth:ap:v:1', stored)).toBe('approved');
  });

  it('refuses a value copied to another key, a plain value, a tampered one and another key', () => {
    const seal = sealAt({ now: 0 });
    const stored = seal.sign('hearth:ap:v:1', 'denied');
    expect(seal.verify('hearth:ap:v:2', stored)).toBeUndefined();
    expect(seal.verify('hearth:ap:v:1', 'approved')).toBeUndefined();
    const tampered = { ...(JSON.parse(stored) as object), p: 'approved' };
    expect(seal.verify('hearth:ap:v:1', JSON.stringify(tampered))).toBeUndefined();
    const other = sealAt({ now: 0 }, 'another-secret-of-at-least-32-characters!');
    expect(seal.verify('hearth:ap:v:1', other.sign('hearth:ap:v:1', 'approved'))).toBeUndefined();
    // A missing value is not a rejection.
    expect(seal.verify('hearth:ap:v:1', null)).toBeUndefined();
    expect(seal.rejected()).toEqual({ unreadable: 1, bad_mac: 3, stale: 0, replayed: 0 });
  });

  it('a stored value is not accepted as a message, nor a message as a stored value', () => {
    const seal = sealAt({ now: 5 });
    expect(seal.open('k', seal.sign('k', 'x'))).toBeUndefined();
    expect(seal.verify('k', seal.seal('k', 'x'))).toBeUndefined();
  });
});
