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
});
