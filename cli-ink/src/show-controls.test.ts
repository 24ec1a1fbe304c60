import { describe, expect, it } from 'vitest';
import { showControls } from './show-controls.ts';

describe('showControls', () => {
  it.each([
    [
      'an ANSI repaint',
      'touch X #\u001b[2K\r\u001b[32mls -la',
      'touch X #\\x1b[2K\\r\\x1b[32mls -la',
    ],
    ['newline and tab', 'a\nb\tc', 'a\\nb\\tc'],
    ['NUL, backspace and DEL', 'a\u0000b\bc\u007f', 'a\\x00b\\x08c\\x7f'],
    ['C1 controls (a one-byte CSI)', '\u009b2K\u0085', '\\x9b2K\\x85'],
    [
      'bidi overrides and isolates',
      'ls \u202ex- mr\u202c \u2066a\u2069',
      'ls \\u202ex- mr\\u202c \\u2066a\\u2069',
    ],
    ['bidi marks', '\u200e\u200f\u061c', '\\u200e\\u200f\\u061c'],
    ['invisible characters and separators', 'a\u200bb\ufeffc\u2028d', 'a\\u200bb\\ufeffc\\u2028d'],
    ['a lone surrogate', 'a\ud800b', 'a\\ud800b'],
  ])('shows %s as escapes', (_name, text, shown) => {
    expect(showControls(text)).toBe(shown);
  });

  it('leaves printable text, accents, CJK and emoji as they are', () => {
    const text = 'grep -r "café 日本 🔥" ~/notes | wc -l \\ done';
    expect(showControls(text)).toBe(text);
  });
});
