import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLongTermMemoryConformance } from '../../memory/long-term-conformance.ts';
import type { MemoryEntry } from '../../memory/ports.ts';
import type { Database } from '../database.ts';
import { loadBetterSqlite3 } from '../drizzle.ts';
import { openSqliteDatabase } from './open-sqlite.ts';
import { forgetSqliteOrigin } from './testing/legacy-rows.ts';

const migrationsFolder = fileURLToPath(new URL('../../../drizzle/sqlite', import.meta.url));

let folder = '';

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hearth-sqlite-search-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

// The whole suite again with the probe of the newest rows turned off: every search that the
// trigram index can answer goes through it, and must still give exactly the same results.
runLongTermMemoryConformance(
  'SQLite file, searching through the trigram index',
  () => openSqliteDatabase(join(folder, 'indexed', 'memory.db'), { searchProbeRows: 0 }),
  { forgetOrigin: (id) => forgetSqliteOrigin(join(folder, 'indexed', 'memory.db'), id) },
);

/**
 * What `search` must return: ASCII queries without NUL take SQLite's LIKE (ASCII letters fold;
 * the content ends, for LIKE, at its first NUL), all others compare toLowerCase() forms.
 */
function matches(content: string, query: string): boolean {
  if (/^\p{ASCII}*$/u.test(query) && !query.includes('\0')) {
    const ascii = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
    return ascii(content.split('\0')[0] ?? '').includes(ascii(query));
  }
  return content.toLowerCase().includes(query.toLowerCase());
}

/** Texts where FTS5's case folding and JavaScript's toLowerCase() part ways. */
const corpus = [
  'ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ Cherokee capitals',
  'ꮳꮃꭹ ꭶꮼꮒꭿꮝꮧ cherokee small',
  'ᲡᲐᲥᲐᲠᲗᲕᲔᲚᲝ Mtavruli',
  'საქართველო mkhedruli',
  'Ⴀჼ ⴀ Asomtavruli',
  'İSTANBUL DİX and Dİe',
  'istanbul dix and die',
  'i\u0307stanbul decomposed',
  'ΟΔΟΣ ΚΑΙ ΟΔΟΣ',
  'οδος και οδοσ',
  'ΣΑΣ σας',
  'Kelvin 5 \u212A and 5 K',
  'STRASSE straße STRAẞE',
  'ǅungla Ǆ ǆ',
  'ﬁle ﬂow',
  '𐐀𐐁𐐂 Deseret 𐐨𐐩𐐪',
  '𐒰𐒱𐒲 Osage 𐓘𐓙𐓚',
  'nul\0inside text',
  'Über café naïve ÉTÉ',
];

function queriesOf(texts: readonly string[]): string[] {
  const queries = new Set<string>();
  for (const text of texts) {
    const points = [...text];
    for (let length = 3; length <= 6; length += 1)
      for (let start = 0; start + length <= points.length; start += 1) {
        const part = points.slice(start, start + length).join('');
        queries.add(part).add(part.toLowerCase()).add(part.toUpperCase());
      }
  }
  return [...queries];
}

describe('SQLite trigram index', () => {
  it('answers exactly as the exact test, where FTS5 folds letters differently', async () => {
    const db = await openSqliteDatabase(join(folder, 'oracle.db'), { searchProbeRows: 0 });
    try {
      const stored: MemoryEntry[] = [];
      for (const content of corpus)
        stored.push(await db.memory.insert({ session_id: 'big', content, importance_score: 0 }));
      // Enough other rows in the session that looking it up beats scanning it.
      for (let index = 0; index < 200; index += 1)
        stored.push(
          await db.memory.insert({
            session_id: 'big',
            content: `filler ${index}`,
            importance_score: 0,
          }),
        );
      const expected = (query: string): number[] =>
        stored
          .filter((entry) => matches(entry.content, query))
          .map((entry) => entry.id)
          .reverse()
          .slice(0, 50);

      const queries = queriesOf(corpus);
      expect(queries.length).toBeGreaterThan(1_000);
      for (const query of queries) {
        const all = await db.memory.search(query, { limit: 50 });
        const inSession = await db.memory.search(query, { limit: 50, session_id: 'big' });
        expect(
          all.map((entry) => entry.id),
          query,
        ).toStrictEqual(expected(query));
        expect(
          inSession.map((entry) => entry.id),
          query,
        ).toStrictEqual(expected(query));
      }
    } finally {
      await db.close();
    }
  });

  it('is what finds the rows: an entry left out of the index is not found through it', async () => {
    const file = join(folder, 'stale.db');
    const indexed = await openSqliteDatabase(file, { searchProbeRows: 0 });
    const probing = await openSqliteDatabase(file);
    try {
      const entry = await indexed.memory.insert({
        session_id: 's',
        content: 'a hidden treasure',
        importance_score: 0.5,
      });
      await expect(indexed.memory.search('TREASURE', { limit: 5 })).resolves.toStrictEqual([entry]);
      const raw = new BetterSqlite3(file);
      raw
        .prepare(
          "insert into memory_entries_fts (memory_entries_fts, rowid, content) values ('delete', ?, ?)",
        )
        .run(entry.id, entry.content);
      raw.close();
      await expect(indexed.memory.search('treasure', { limit: 5 })).resolves.toStrictEqual([]);
      // Too short for the index, or inside the newest rows the default probe scans: found.
      await expect(indexed.memory.search('tr', { limit: 5 })).resolves.toStrictEqual([entry]);
      await expect(probing.memory.search('treasure', { limit: 5 })).resolves.toStrictEqual([entry]);
    } finally {
      await indexed.close();
      await probing.close();
    }
  });

  it('indexes the entries written before its migration', async () => {
    // A store as the previous release left it: migrated up to 0001_memory, with rows.
    const oldMigrations = join(folder, 'migrations-0001');
    await cp(migrationsFolder, oldMigrations, { recursive: true });
    const journalFile = join(oldMigrations, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: unknown[] };
    journal.entries = journal.entries.slice(0, 2);
    await writeFile(journalFile, JSON.stringify(journal));
    const file = join(folder, 'backfill.db');
    const raw = new BetterSqlite3(file);
    const { driver, migrator } = loadBetterSqlite3();
    migrator.migrate(driver.drizzle({ client: raw }), { migrationsFolder: oldMigrations });
    const insert = raw.prepare(
      'insert into memory_entries (session_id, content, content_hash, importance_score, created_at) values (?, ?, ?, ?, ?)',
    );
    const before = Number(
      insert.run('s', 'Written before the index', 'x', 0.5, 100).lastInsertRowid,
    );
    insert.run('s', 'another old row', 'y', 0.5, 200);
    raw.close();

    const db: Database = await openSqliteDatabase(file, { searchProbeRows: 0 });
    try {
      const found = await db.memory.search('BEFORE THE INDEX', { limit: 5 });
      expect(found.map((entry) => entry.id)).toStrictEqual([before]);
      const after = await db.memory.insert({
        session_id: 's',
        content: 'old news',
        importance_score: 0,
      });
      const rows = await db.memory.search('old ', { limit: 5 });
      expect(rows.map((entry) => entry.id)).toStrictEqual([after.id, before + 1]);
      expect(db.keywordSearch).toStrictEqual({ indexed: true, method: 'fts5-trigram' });
    } finally {
      await db.close();
    }
    const check = new BetterSqlite3(file);
    try {
      // FTS5 compares the index with memory_entries, row by row; throws when they differ.
      check.exec(
        "insert into memory_entries_fts (memory_entries_fts, rank) values ('integrity-check', 1)",
      );
    } finally {
      check.close();
    }
  });

  it('stays in step with the table through updates and removals', async () => {
    const file = join(folder, 'in-step.db');
    const db = await openSqliteDatabase(file);
    try {
      const ids: number[] = [];
      for (let index = 0; index < 50; index += 1)
        ids.push(
          (
            await db.memory.insert({
              session_id: `s${index % 3}`,
              content: `entry ${index}`,
              importance_score: index / 50,
              created_at: index,
            })
          ).id,
        );
      for (const id of ids.slice(0, 10)) await db.memory.update(id, { content: `changed ${id}` });
      await db.memory.update(ids[10] ?? 0, { tags: ['kept'] });
      await db.memory.remove(ids[20] ?? 0);
      await db.memory.removeMany(ids.slice(21, 25));
      await db.memory.removeSession('s2');
      await db.memory.prune({ threshold: 0.5 });
    } finally {
      await db.close();
    }
    const check = new BetterSqlite3(file);
    try {
      check.exec(
        "insert into memory_entries_fts (memory_entries_fts, rank) values ('integrity-check', 1)",
      );
      // Every remaining row is found through the index, and nothing else.
      const found = check
        .prepare(
          `select rowid from memory_entries_fts
             where memory_entries_fts match '"ent" OR "cha"' order by rowid`,
        )
        .pluck()
        .all();
      const rows = check.prepare('select id from memory_entries order by id').pluck().all();
      expect(found.length).toBeGreaterThan(0);
      expect(found).toStrictEqual(rows);
    } finally {
      check.close();
    }
  });
});

describe('SQLite searchMany (the chat searches all its keywords at once)', () => {
  it('answers each query exactly as search does, whatever plan each one takes', async () => {
    for (const searchProbeRows of [0, 5, 1_000]) {
      const db = await openSqliteDatabase(join(folder, `many-${searchProbeRows}.db`), {
        searchProbeRows,
      });
      try {
        for (let index = 0; index < 60; index += 1)
          await db.memory.insert({
            session_id: index % 4 === 0 ? 'small' : 'large',
            content: `${corpus[index % corpus.length] ?? ''} garden note ${index}`,
            importance_score: 0.5,
            created_at: 1_000 + Math.floor(index / 3),
          });
        const queries = ['garden', 'note 1', 'ga', 'café', 'ΟΔΟΣ', 'absent word', 'x', 'NOTE'];
        for (const session_id of [undefined, 'small', 'large', 'empty'])
          for (const limit of [0, 1, 8, 100]) {
            const options = { limit, ...(session_id === undefined ? {} : { session_id }) };
            const one = await Promise.all(queries.map((q) => db.memory.search(q, options)));
            const many = await db.memory.searchMany?.(queries, options);
            expect(many, `${session_id} ${limit} probe ${searchProbeRows}`).toStrictEqual(one);
          }
        await expect(db.memory.searchMany?.([], { limit: 8 })).resolves.toStrictEqual([]);
      } finally {
        await db.close();
      }
    }
  });

  it('answers a few queries that share one scan of the scope exactly as search does', async () => {
    const db = await openSqliteDatabase(join(folder, 'joint.db'));
    try {
      for (let index = 0; index < 90; index += 1)
        await db.memory.insert({
          session_id: index % 3 === 0 ? 'small' : 'large',
          content: `${corpus[index % corpus.length] ?? ''} garden_note 100% ${index}`,
          importance_score: 0.5,
          created_at: 1_000 + Math.floor(index / 4),
        });
      const groups = [
        ['garden', 'note'],
        ['garden', 'absent', 'café'],
        ['ΟΔΟΣ', 'ga', 'x', 'NOTE 1'],
        ['absent', 'missing'],
        ['_note', '100%', 'n_te', '\\'],
        ['nul\0', 'istanbul', 'İ'],
        ['', 'garden'],
        ['garden', 'garden'],
      ];
      for (const queries of groups)
        for (const session_id of [undefined, 'small', 'large', 'empty'])
          for (const limit of [0, 1, 3, 100]) {
            const options = { limit, ...(session_id === undefined ? {} : { session_id }) };
            const one = await Promise.all(queries.map((q) => db.memory.search(q, options)));
            const many = await db.memory.searchMany?.(queries, options);
            expect(many, `${queries.join('|')} ${session_id} ${limit}`).toStrictEqual(one);
          }
      await expect(db.memory.searchMany?.(['a', 'b'], { limit: -1 })).rejects.toThrow(/limit/);
    } finally {
      await db.close();
    }
  });

  it('sees every change between two joint scans of a session, by whatever connection made it', async () => {
    const file = join(folder, 'folded.db');
    const db = await openSqliteDatabase(file);
    const other = new BetterSqlite3(file);
    try {
      const stored: MemoryEntry[] = [];
      for (let index = 0; index < 12; index += 1)
        stored.push(
          await db.memory.insert({
            session_id: 'kept',
            content: `${corpus[index] ?? ''} Garden row ${index}`,
            importance_score: 0.5,
            created_at: 2_000 + Math.floor(index / 3),
          }),
        );
      const queries = ['garden', 'row 1', 'tea', 'k and'];
      const options = { limit: 5, session_id: 'kept' };
      /** The joint (folded) answer equals one search per query, which never folds. */
      const agrees = async (label: string) => {
        const one = await Promise.all(queries.map((q) => db.memory.search(q, options)));
        expect(await db.memory.searchMany?.(queries, options), label).toStrictEqual(one);
        return one;
      };
      await agrees('first scan');
      await agrees('second scan, from what the first kept');

      const first = stored[0] as MemoryEntry;
      const newest = stored.at(-1) as MemoryEntry;
      await db.memory.update(newest.id, { content: 'green TEA now' });
      expect((await agrees('edited here'))[2]?.map((e) => e.id)).toStrictEqual([newest.id]);

      other
        .prepare('update memory_entries set content = ? where id = ?')
        .run('Kelvin K AND k and TEA', first.id);
      expect((await agrees('edited by another connection'))[2]?.map((e) => e.id)).toStrictEqual([
        newest.id,
        first.id,
      ]);

      other
        .prepare(
          "insert into memory_entries (session_id, content, content_hash, importance_score, created_at, updated_at) values ('kept', 'tea garden, inserted elsewhere', 'h', 0.5, 9000, 9000)",
        )
        .run();
      expect((await agrees('inserted by another connection'))[0]?.[0]?.content).toBe(
        'tea garden, inserted elsewhere',
      );

      // Rows 10 and 1 are among the matches of "row 1".
      const tagged = stored[10] as MemoryEntry;
      const taggedElsewhere = stored[1] as MemoryEntry;
      await db.memory.update(tagged.id, { tags: ['tagged'], importance_score: 0.9 });
      const afterTag = await agrees('tagged here');
      expect(afterTag[1]?.find((e) => e.id === tagged.id)?.tags).toStrictEqual(['tagged']);
      other
        .prepare('update memory_entries set tags = ? where id = ?')
        .run('["elsewhere"]', taggedElsewhere.id);
      const afterOther = await agrees('tagged elsewhere');
      expect(afterOther[1]?.find((e) => e.id === taggedElsewhere.id)?.tags).toStrictEqual([
        'elsewhere',
      ]);

      await db.memory.remove(newest.id);
      expect((await agrees('deleted here'))[2]?.map((e) => e.id)).not.toContain(newest.id);
      other.prepare('delete from memory_entries where id = ?').run(first.id);
      expect((await agrees('deleted elsewhere'))[2]?.map((e) => e.id)).not.toContain(first.id);

      const added = await db.memory.insert({
        session_id: 'kept',
        content: 'an older TEA row',
        importance_score: 0.5,
        created_at: 1_000,
      });
      expect((await agrees('an older row inserted here'))[2]?.at(-1)?.id).toBe(added.id);
      // Rows added between two scans, newer, older and alike in time: only they are read.
      const newestTea: MemoryEntry[] = [];
      for (const [content, created_at] of [
        ['tea, the newest', 9_999],
        ['tea in between', 2_001],
        ['tea in between too', 2_001],
      ] as const)
        newestTea.push(
          await db.memory.insert({
            session_id: 'kept',
            content,
            importance_score: 0.5,
            created_at,
          }),
        );
      await agrees('rows added here');
      // Added and deleted between two scans: the count is not what the additions make it.
      for (const content of ['tea again', 'tea once more'])
        await db.memory.insert({ session_id: 'kept', content, importance_score: 0.5 });
      const gone = newestTea[0] as MemoryEntry;
      await db.memory.remove(gone.id);
      expect((await agrees('added and deleted'))[2]?.map((e) => e.id)).not.toContain(gone.id);

      await db.memory.removeSession('kept');
      expect(await agrees('session removed')).toStrictEqual(queries.map(() => []));
    } finally {
      other.close();
      await db.close();
    }
  });

  it('answers as search does for a session that grows past the probe and shrinks again', async () => {
    const db = await openSqliteDatabase(join(folder, 'growing.db'), { searchProbeRows: 6 });
    try {
      const queries = ['garden', 'tea'];
      const options = { limit: 4, session_id: 'growing' };
      const agrees = async (label: string) => {
        const one = await Promise.all(queries.map((q) => db.memory.search(q, options)));
        expect(await db.memory.searchMany?.(queries, options), label).toStrictEqual(one);
      };
      const add = (index: number) =>
        db.memory.insert({
          session_id: 'growing',
          content: `${index % 2 ? 'Garden' : 'TEA'} ${index}`,
          importance_score: 0.5,
        });
      const stored: MemoryEntry[] = [];
      for (let index = 0; index < 3; index += 1) stored.push(await add(index));
      await agrees('small');
      await agrees('small, kept');
      for (let index = 3; index < 20; index += 1) stored.push(await add(index));
      await agrees('grown past the probe');
      await agrees('still large');
      await db.memory.removeMany(stored.slice(0, 16).map((entry) => entry.id));
      await agrees('small again');
      await agrees('small again, kept');
    } finally {
      await db.close();
    }
  });
});
