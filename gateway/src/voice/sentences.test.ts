import { describe, expect, it } from 'vitest';
import { createSentenceSplitter, speakable } from './sentences.ts';

describe('streamed sentence splitting', () => {
  it('completes a sentence as soon as the text after its full stop arrives', () => {
    const splitter = createSentenceSplitter();
    expect(splitter.push('Hello there')).toEqual([]);
    expect(splitter.push('. How are')).toEqual(['Hello there.']);
    expect(splitter.push(' you? I am fine')).toEqual(['How are you?']);
    expect(splitter.end()).toEqual(['I am fine']);
  });

  it('does not split decimals or abbreviations', () => {
    const splitter = createSentenceSplitter();
    expect(splitter.push('It costs 3.50 today, Dr. Smith said. ')).toEqual([
      'It costs 3.50 today, Dr. Smith said.',
    ]);
  });

  it('speaks a very long run-on sentence in pieces and never reads markdown symbols', () => {
    const splitter = createSentenceSplitter();
    const pieces = splitter.push(`${'word '.repeat(200)}`);
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces[0]!.length).toBeLessThanOrEqual(400);
    expect(speakable('**Bold** and `code` and [a link](http://x) ### done')).toBe(
      'Bold and code and a link done',
    );
  });

  it('drops pieces with nothing to say', () => {
    const splitter = createSentenceSplitter();
    expect(splitter.push('... !!! ')).toEqual([]);
    expect(splitter.end()).toEqual([]);
  });
});
