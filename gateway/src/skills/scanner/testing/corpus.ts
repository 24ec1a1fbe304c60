/** The scanner corpus's samples, for the tests that run them through the scanner or an install. */
import { readdirSync, readFileSync } from 'node:fs';
import type { SkillKind } from '../../types.ts';

export interface CorpusSample {
  file: string;
  folder: 'malicious' | 'benign';
  kind: SkillKind;
  source: string;
}

const CORPUS = new URL('../corpus/', import.meta.url);

export function corpusSamples(folder: 'malicious' | 'benign'): CorpusSample[] {
  const dir = new URL(`${folder}/`, CORPUS);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mjs.txt') || f.endsWith('.py.txt'))
    .sort()
    .map((file) => ({
      file,
      folder,
      kind: file.endsWith('.py.txt') ? 'py' : 'mjs',
      source: readFileSync(new URL(file, dir), 'utf8'),
    }));
}

/**
 * The attack kinds of issue 26 (and their near-miss twins), by file-name prefix:
 * `worm-…` is malicious, `worm-ok-…` benign; `advice-…` is benign security-advice text.
 */
export const CORPUS_KINDS = ['worm', 'stealer', 'poison', 'shadow', 'unicode', 'advice'] as const;
export type CorpusKind = (typeof CORPUS_KINDS)[number];

export function kindOf(file: string): CorpusKind | undefined {
  return CORPUS_KINDS.find((kind) => file.startsWith(`${kind}-`));
}
