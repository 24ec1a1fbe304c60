import { describe, expect, it } from 'vitest';
import { isTimeoutDuration } from './unwrap.ts';

describe('isTimeoutDuration', () => {
  it.each(['5', '10s', '1.5m', '.5', '0.25h', '2d'])('%s is a duration', (word) => {
    expect(isTimeoutDuration(word)).toBe(true);
  });

  it.each(['', 's', '1.', '.', '1.5.5', '5x', '-5', '1e3'])('%j is not', (word) => {
    expect(isTimeoutDuration(word)).toBe(false);
  });

  // The word comes from a model's command line: 32 KB of digits and a letter took 4.4 s.
  it('reads a long hostile word in linear time', () => {
    const started = performance.now();
    expect(isTimeoutDuration(`${'1'.repeat(32_768)}x`)).toBe(false);
    expect(isTimeoutDuration(`${'1'.repeat(16_384)}.${'1'.repeat(16_384)}x`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
