/**
 * Issue 26's attack kinds through the install path's verdict (layer 1 and the scanner, the
 * function hub installs and `POST /hub/scan` share): for each kind, at least 20 malicious
 * samples (JavaScript and, where the kind applies, Python) and 20 benign near misses. The
 * figures are printed; none may be missed and none flagged.
 */
import { describe, expect, it } from 'vitest';
import { createSkillValidator } from '../validate/validator.ts';
import { createPackageJudge } from './judge.ts';
import { scanPackage } from './scan-package.ts';
import { CORPUS_KINDS, corpusSamples, kindOf, type CorpusSample } from './testing/corpus.ts';

const judge = createPackageJudge({
  validate: createSkillValidator({ timeoutMs: 20_000 }),
  scan: scanPackage,
});

const ofKind = (samples: CorpusSample[], kind: string) =>
  samples.filter((s) => kindOf(s.file) === kind);
const malicious = corpusSamples('malicious').filter((s) => kindOf(s.file) !== undefined);
const benign = corpusSamples('benign').filter((s) => kindOf(s.file) !== undefined);

describe('the 2026 attack kinds, through the install verdict', () => {
  it('holds at least 20 malicious and 20 benign samples per kind, in both languages', () => {
    for (const kind of CORPUS_KINDS) {
      const bad = ofKind(malicious, kind);
      const good = ofKind(benign, kind);
      if (kind !== 'advice') {
        expect(bad.length, `${kind} malicious`).toBeGreaterThanOrEqual(20);
        expect(new Set(bad.map((s) => s.kind)), `${kind} malicious languages`).toEqual(
          new Set(['mjs', 'py']),
        );
      }
      expect(good.length, `${kind} benign`).toBeGreaterThanOrEqual(20);
      expect(new Set(good.map((s) => s.kind)), `${kind} benign languages`).toEqual(
        new Set(['mjs', 'py']),
      );
    }
  });

  it('installs no malicious sample and flags no benign one', async () => {
    const report: string[] = [];
    const missed: string[] = [];
    const flagged: string[] = [];
    for (const kind of CORPUS_KINDS) {
      let kindMissed = 0;
      let kindFlagged = 0;
      for (const s of ofKind(malicious, kind)) {
        if (!(await judge(s.source, s.kind)).flagged) {
          kindMissed++;
          missed.push(s.file);
        }
      }
      for (const s of ofKind(benign, kind)) {
        const verdict = await judge(s.source, s.kind);
        if (verdict.flagged) {
          kindFlagged++;
          flagged.push(`${s.file}: ${verdict.findings.map((f) => f.rule).join(', ')}`);
        }
      }
      report.push(
        `${kind}: ${ofKind(malicious, kind).length} malicious (${kindMissed} missed), ${ofKind(benign, kind).length} benign (${kindFlagged} flagged)`,
      );
    }
    process.stdout.write(`corpus by kind\n  ${report.join('\n  ')}\n`);
    expect(missed).toEqual([]);
    expect(flagged).toEqual([]);
  }, 120_000);
});
