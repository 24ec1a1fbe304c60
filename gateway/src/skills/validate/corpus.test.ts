import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSkillValidator } from './validator.ts';

// The scanner's benign corpus: real-world-shaped skills that talk about threats (comments,
// docstrings, glossaries, char codes, data URIs) without reaching them. Layer 1 passes them all.
const benignDir = fileURLToPath(new URL('../scanner/corpus/benign/', import.meta.url));
const samples = readdirSync(benignDir).filter((file) => /\.(mjs|py)\.txt$/.test(file));

const python3Path = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
  encoding: 'utf8',
}).trim();
const validate = createSkillValidator({ python3Path, timeoutMs: 20_000 });

describe('layer 1 does not reject ordinary skills that merely mention blocked things', () => {
  it('the corpus is there', () => {
    expect(samples.length).toBeGreaterThan(10);
  });

  it.each(samples)('%s', async (file) => {
    const kind = file.endsWith('.py.txt') ? 'py' : 'mjs';
    const result = await validate(readFileSync(`${benignDir}${file}`, 'utf8'), kind);
    expect(result.problems).toEqual([]);
  });
});
