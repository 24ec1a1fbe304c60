/**
 * The spec-item tables (docs/spec-conformance/part-1.md and part-2.md) stay true to the tree:
 * every row has a known status, every test they name exists (a glob matches one at least), and a
 * row marked done names at least one test or points at the rows that do. A renamed or deleted test file fails here instead of leaving a stale row.
 */
import { globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const PARTS = ['docs/spec-conformance/part-1.md', 'docs/spec-conformance/part-2.md'];
const STATUSES = new Set(['done', 'deviation', 'partial', 'missing']);
const TEST_PATH = /\b(?:gw|cli|cli-ink|gateway|e2e|scripts|web)\/[\w./*-]+\.test\.tsx?\b/g;

interface Row {
  part: string;
  item: string;
  status: string;
  tests: string[];
  /** The row points at other rows for its tests ("see rules 1–3, Voice, Approval rows"). */
  seeOthers: boolean;
}

/** The table rows of a part: the cell that is a status word, and the test paths it names. */
function rowsOf(part: string): Row[] {
  const rows: Row[] = [];
  for (const line of readFileSync(part, 'utf8').split('\n')) {
    if (!line.startsWith('|') || /^\|\s*-{3}/.test(line)) continue;
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    const status = cells.find((cell) => STATUSES.has(cell.replace(/\*/g, '')));
    if (status === undefined) continue; // a header row
    rows.push({
      part,
      item: cells.find((cell) => cell !== '' && !/^\w?\d+$/.test(cell)) ?? '',
      status: status.replace(/\*/g, ''),
      seeOthers: cells.some((cell) => /^see /i.test(cell)),
      tests: [...line.matchAll(TEST_PATH)].map(([path]) =>
        path.replace(/^gw\//, 'gateway/src/').replace(/^cli\//, 'cli-ink/src/'),
      ),
    });
  }
  return rows;
}

describe('the spec-item tables', () => {
  const rows = PARTS.flatMap(rowsOf);

  it('cover the spec with rows of known status', () => {
    expect(rows.length).toBeGreaterThan(250);
    const counts = Object.fromEntries([...STATUSES].map((s) => [s, 0]));
    for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
    expect(counts.done).toBeGreaterThan(rows.length * 0.9);
  });

  it('name only test files that exist', () => {
    const missing = rows.flatMap((row) => row.tests.filter((path) => globSync(path).length === 0));
    expect(missing).toEqual([]);
  });

  it('name a test for every row marked done', () => {
    const untested = rows.filter(
      (row) => row.status === 'done' && row.tests.length === 0 && !row.seeOthers,
    );
    expect(untested.map((row) => `${row.part}: ${row.item}`)).toEqual([]);
  });
});
