import { describe, expect, it } from 'vitest';
import { importanceOf, LONG_TERM_THRESHOLD } from './importance.ts';

describe('turn importance', () => {
  it.each([
    ['hi', 0.05],
    ['thanks!', 0.05],
    ['What is the capital of Peru?', 0.3],
    ['My name is Ada and I live in Leeds', 0.65],
    ['Remember that my wifi password rotates on the 15th', 0.75],
    ["I'm allergic to peanuts", 0.65],
    ['Meeting moved to 14.11.2026', 0.4],
  ])('%j scores %d', (text, expected) => {
    expect(importanceOf(text)).toBe(expected);
  });

  it('persists personal facts long-term but not small talk or plain questions', () => {
    expect(importanceOf('My name is Ada') >= LONG_TERM_THRESHOLD).toBe(true);
    expect(importanceOf('hello') >= LONG_TERM_THRESHOLD).toBe(false);
    expect(importanceOf('What is 2+2?') >= LONG_TERM_THRESHOLD).toBe(false);
  });

  it.each([
    ['Write to ada@example.org', 0.4],
    ['See https://example.org', 0.4],
    ['It was on 3/4', 0.4],
  ])('counts the fact in %j', (text, expected) => {
    expect(importanceOf(text)).toBe(expected);
  });

  // Every turn's text is scored: a hostile 32 KB word took 0.47–0.69 s with `[\w.+-]+@…`.
  it.each([
    ['a 32 KB word', 'a'.repeat(32_768)],
    ['an address without a dot', `a@${'-'.repeat(32_768)}`],
    ['a run of at-signs', 'a@'.repeat(16_384)],
  ])('scores %s in linear time', (_name, text) => {
    const started = performance.now();
    importanceOf(text, text);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
