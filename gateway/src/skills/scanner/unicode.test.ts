import { describe, expect, it } from 'vitest';
import {
  hasVariationRun,
  hiddenTagText,
  isBalancedRtlText,
  isLookalikeName,
  unconfuse,
} from './unicode.ts';

describe('unicode that changes what code or text says', () => {
  it('allows raw bidi controls only balanced inside right-to-left text', () => {
    expect(isBalancedRtlText("'مرحبا \u2068{name}\u2069!'")).toBe(true);
    expect(isBalancedRtlText('"user\u202e \u2066// admin\u2069 \u2066"')).toBe(false);
    expect(isBalancedRtlText('`https://x/\u2067*/ evil /*\u2069`')).toBe(false); // balanced, no RTL letters
  });

  it('reads tag characters, but not the ones of a subdivision flag', () => {
    const england = '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
    expect(hiddenTagText(`flag ${england}`)).toBe('');
    expect(hiddenTagText('ok\u{E0068}\u{E0069}')).toBe('hi');
  });

  it('tells an emoji variation selector from a run hiding bytes', () => {
    expect(hasVariationRun('❤️ 🏳️‍🌈')).toBe(false);
    expect(hasVariationRun('😀\uFE01\uFE02\u{E0110}')).toBe(true);
  });

  it('names mixing Latin with Cyrillic look-alikes, not Greek maths symbols', () => {
    expect(isLookalikeName('f\u0435tch')).toBe(true);
    expect(unconfuse('f\u0435tch')).toBe('fetch');
    expect(isLookalikeName('Δt')).toBe(false);
    expect(isLookalikeName('计算总和')).toBe(false);
  });
});
