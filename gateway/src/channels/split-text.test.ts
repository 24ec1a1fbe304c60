import { describe, expect, it } from 'vitest';
import { splitText } from './split-text.ts';

describe('splitText: a long reply is split per network limit', () => {
  it('leaves a short text whole', () => {
    expect(splitText('hello', 4096)).toEqual(['hello']);
    expect(splitText('', 10)).toEqual(['']);
  });

  it('cuts at a paragraph break, then a line break, then a space', () => {
    expect(splitText('aaaa bbbb\n\ncccc', 12)).toEqual(['aaaa bbbb', 'cccc']);
    expect(splitText('aaaa\nbbbb cccc', 12)).toEqual(['aaaa', 'bbbb cccc']);
    expect(splitText('aaaa bbbb cccc', 10)).toEqual(['aaaa bbbb', 'cccc']);
  });

  it('cuts hard inside a word with no break, never splitting a surrogate pair', () => {
    expect(splitText('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    const parts = splitText(`${'a'.repeat(9)}🔥🔥`, 10);
    expect(parts).toEqual(['a'.repeat(9), '🔥🔥']);
  });

  it('keeps every part within the limit and loses no character but the separators cut at', () => {
    const text = Array.from({ length: 500 }, (_, i) => `word${i}${i % 17 === 0 ? '\n' : ' '}`).join(
      '',
    );
    const parts = splitText(text, 100);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(100);
    expect(parts.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
  });
});
