import { describe, expect, it } from 'vitest';
import { createDecisionTokens, decisionTokenSecret } from './decision-tokens.ts';

describe('approval decision tokens', () => {
  let clock = 1_000_000_000_000;
  const tokens = createDecisionTokens({ secret: decisionTokenSecret('key'), now: () => clock });
  const expiry = () => clock + 120_000;

  it('redeems a genuine token once, for exactly its approval and decision', () => {
    const token = tokens.mint('a1', 'approve', expiry());
    expect(tokens.redeem('a1', 'deny', token)).toBe(false);
    expect(tokens.redeem('a2', 'approve', token)).toBe(false);
    expect(tokens.redeem('a1', 'approve', token)).toBe(true);
    // Replayed.
    expect(tokens.redeem('a1', 'approve', token)).toBe(false);
  });

  it('refuses an expired token', () => {
    const token = tokens.mint('a3', 'deny', expiry());
    clock += 120_000;
    expect(tokens.redeem('a3', 'deny', token)).toBe(false);
  });

  it('refuses a forged MAC, a stretched expiry, another key’s token and malformed text', () => {
    const token = tokens.mint('a4', 'approve', expiry());
    const [at, mac] = token.split('.') as [string, string];
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    expect(tokens.redeem('a4', 'approve', `${at}.${flipped}`)).toBe(false);
    expect(tokens.redeem('a4', 'approve', `${Number(at) + 999_999}.${mac}`)).toBe(false);
    const other = createDecisionTokens({ secret: decisionTokenSecret('other'), now: () => clock });
    expect(tokens.redeem('a4', 'approve', other.mint('a4', 'approve', expiry()))).toBe(false);
    for (const bad of ['', '.', `${at}.`, `${at}.${mac}x`, `${at}.${mac}.${mac}`, 'x'.repeat(57)])
      expect(tokens.redeem('a4', 'approve', bad)).toBe(false);
    expect(tokens.redeem('a4', 'approve', token)).toBe(true);
  });

  it('takes only the canonical spelling: a token spent, or any, cannot pass spelt another way', () => {
    const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 43 characters carry 258 bits for 256: the last one's two low bits are not part of the MAC.
    const respellings = (token: string) => {
      const last = base64url.indexOf(token.at(-1)!);
      return [0, 1, 2, 3]
        .map((low) => `${token.slice(0, -1)}${base64url[(last & ~3) | low]!}`)
        .filter((spelt) => spelt !== token);
    };
    for (let i = 0; i < 32; i += 1) {
      const token = tokens.mint(`c${i}`, 'approve', expiry());
      expect(respellings(token)).toHaveLength(3);
      for (const spelt of respellings(token))
        expect(tokens.redeem(`c${i}`, 'approve', spelt)).toBe(false);
      expect(tokens.redeem(`c${i}`, 'approve', token)).toBe(true);
      for (const spelt of respellings(token))
        expect(tokens.redeem(`c${i}`, 'approve', spelt)).toBe(false);
    }
  });

  it('derives the same key from the same API key (gateways sharing it accept each other’s tokens), a random one without', () => {
    expect(decisionTokenSecret('k').equals(decisionTokenSecret('k'))).toBe(true);
    expect(decisionTokenSecret('k').equals(decisionTokenSecret('k2'))).toBe(false);
    expect(decisionTokenSecret('').equals(decisionTokenSecret(''))).toBe(false);
  });
});
