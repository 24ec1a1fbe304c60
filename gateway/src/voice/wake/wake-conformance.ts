/**
 * The conformance suite every WakeDetector passes: the wake word in a segment scores above the
 * threshold and is detected; other speech and silence are not. Test support only.
 */
import { describe, expect, it } from 'vitest';
import type { WakeDetector } from '../ports.ts';

export interface WakeFixtures {
  /** 16 kHz segments. */
  wake: Int16Array;
  other: Int16Array;
  silence: Int16Array;
}

export function runWakeConformance(
  name: string,
  make: () => Promise<WakeDetector> | WakeDetector,
  fixtures: () => WakeFixtures,
  options: { skip?: string } = {},
): void {
  const title = options.skip
    ? `${name} wake conformance (skipped: ${options.skip})`
    : `${name} wake conformance`;
  describe.skipIf(options.skip !== undefined)(title, () => {
    it('reports itself available under its name', async () => {
      const wake = await make();
      expect(await wake.availability()).toMatchObject({ available: true, engine: wake.name });
    });

    it('detects the wake word', async () => {
      const wake = await make();
      const result = await wake.detect(fixtures().wake);
      expect(result.detected).toBe(true);
      expect(result.score).toBeGreaterThan(0.5);
    });

    it('does not wake on other speech or on silence', async () => {
      const wake = await make();
      expect((await wake.detect(fixtures().other)).detected).toBe(false);
      expect((await wake.detect(fixtures().silence)).detected).toBe(false);
    });

    it('scores between 0 and 1', async () => {
      const wake = await make();
      const { wake: spoken, other, silence } = fixtures();
      for (const segment of [spoken, other, silence]) {
        const { score } = await wake.detect(segment);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
      }
    });
  });
}
