import { describe, expect, it } from 'vitest';
import { checkPath, parseStartFrame } from './start-frame.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const frame = (patch: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: 'weather',
    kind: 'mjs',
    files: { 'skill.mjs': b64('export const a = () => 1;'), 'data/cities.txt': b64('Oslo') },
    runtime: { 'runtime.mjs': b64('// runtime'), 'skill-api.mjs': b64('// api') },
    ...patch,
  });

describe('the start frame of a skill host', () => {
  it('reads names, kind, files and runtime (decoded), with defaults', () => {
    const parsed = parseStartFrame(frame());
    expect(parsed).toMatchObject({
      ok: true,
      start: { name: 'weather', kind: 'mjs', network: false, maxOldSpaceMb: 128 },
    });
    if (!parsed.ok) return;
    expect(parsed.start.files.map((f) => [f.path, f.bytes.toString()])).toEqual([
      ['skill.mjs', 'export const a = () => 1;'],
      ['data/cities.txt', 'Oslo'],
    ]);
  });

  it.each([
    ['..', 'may not contain'],
    ['a/./b', 'may not contain'],
    ['/abs', 'must be relative'],
    ['a//b', 'must be relative'],
    ['.env', 'no leading dot'],
    ['a\\b', 'must be relative'],
    ['nul\u0000', 'must be relative'],
    ['x'.repeat(513), '1 to 512'],
    ['', '1 to 512'],
  ])('refuses the file name %j', (path, why) => {
    expect(checkPath(path)).toContain(why);
  });

  it('caps the total size and the number of files', () => {
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}.txt`, b64('x')]));
    expect(parseStartFrame(frame({ files: { 'skill.mjs': b64('x'), ...many } }))).toEqual({
      ok: false,
      detail: 'too many files',
    });
    const big = { 'skill.mjs': Buffer.alloc(5 * 1024 * 1024).toString('base64') };
    expect(parseStartFrame(frame({ files: big }))).toEqual({
      ok: false,
      detail: 'the files are larger than allowed',
    });
  });

  it.each([
    [{ kind: 'sh' }, /kind/],
    [{ network: 'yes' }, /network/],
    [{ max_old_space_mb: 1e9 }, /max_old_space_mb/],
    [{ files: [] }, /files must be an object/],
    [{ runtime: { 'runtime.mjs': 42 } }, /base64/],
    [{ runtime: { 'skill-api.mjs': b64('x') } }, /runtime\.mjs is missing/],
    [{ kind: 'py' }, /runtime\.py is missing/],
  ])('refuses %j', (patch, why) => {
    const parsed = parseStartFrame(frame(patch));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.detail).toMatch(why);
  });
});
