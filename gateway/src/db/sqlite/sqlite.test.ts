import { chmod, cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLongTermMemoryConformance } from '../../memory/long-term-conformance.ts';
import { runDatabaseConformance } from '../conformance.ts';
import { loadBetterSqlite3 } from '../drizzle.ts';
import { openDatabase } from '../open-database.ts';
import { openSqliteDatabase } from './open-sqlite.ts';
import { forgetSqliteOrigin } from './testing/legacy-rows.ts';

const migrationsFolder = fileURLToPath(new URL('../../../drizzle/sqlite', import.meta.url));

let folder = '';

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hearth-sqlite-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const conformanceFile = (): string => join(folder, 'conformance', 'memory.db');

runDatabaseConformance('SQLite file', () => openSqliteDatabase(conformanceFile()), {
  kind: 'sqlite',
  get location() {
    return conformanceFile();
  },
});

const fileMode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe('SQLite specifics', () => {
  it('creates the missing parent folders with mode 0700 and the file with mode 0600', async () => {
    const file = join(folder, 'fresh', 'state', 'memory.db');
    const db = await openSqliteDatabase(file);
    try {
      await db.settings.set('written', true);
      expect(await fileMode(join(folder, 'fresh'))).toBe(0o700);
      expect(await fileMode(join(folder, 'fresh', 'state'))).toBe(0o700);
      expect(await fileMode(file)).toBe(0o600);
      expect(await fileMode(`${file}-wal`)).toBe(0o600);
    } finally {
      await db.close();
    }
  });

  it('tightens an existing database file to mode 0600', async () => {
    const file = join(folder, 'loose.db');
    await writeFile(file, '');
    await chmod(file, 0o644);
    const db = await openSqliteDatabase(file);
    await db.close();
    expect(await fileMode(file)).toBe(0o600);
  });

  it('puts the database in WAL mode', async () => {
    const file = join(folder, 'wal.db');
    const db = await openSqliteDatabase(file);
    await db.close();
    const raw = new BetterSqlite3(file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('records each migration once, however often it is opened', async () => {
    const file = join(folder, 'migrated.db');
    for (let i = 0; i < 3; i += 1) await (await openSqliteDatabase(file)).close();
    const raw = new BetterSqlite3(file, { readonly: true });
    try {
      const tables = raw
        .prepare("select name from sqlite_master where type = 'table' order by name")
        .pluck()
        .all();
      expect(tables).toStrictEqual([
        '__drizzle_migrations',
        'allowlist',
        'channel_messages',
        'channel_pairings',
        'channel_seen',
        'conversation_messages',
        'memory_entries',
        'memory_entries_fts',
        'memory_entries_fts_config',
        'memory_entries_fts_data',
        'memory_entries_fts_idx',
        'memory_entries_fts_vocab',
        'orchestrator_nodes',
        'session_titles',
        'settings',
        'sqlite_sequence',
        'usage_hourly',
      ]);
      // 0000_foundation, 0001_memory, 0002_memory_search, 0003_allowlist_directory,
      // 0004_orchestrator_nodes, 0005_channels, 0006_memory_origin, 0007_channel_replay,
      // 0008_history_origin, 0009_usage_history, 0010_session_titles
      expect(raw.prepare('select count(*) from __drizzle_migrations').pluck().get()).toBe(11);
    } finally {
      raw.close();
    }
  });

  it('adds the origin column to a database written before it; its rows read as the default of their type', async () => {
    // A store as the previous release left it: migrated up to 0005_channels, with rows.
    const oldMigrations = join(folder, 'migrations-0005');
    await cp(migrationsFolder, oldMigrations, { recursive: true });
    const journalFile = join(oldMigrations, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
      entries: { tag: string }[];
    };
    journal.entries = journal.entries.filter((entry) => entry.tag < '0006');
    await writeFile(journalFile, JSON.stringify(journal));
    const file = join(folder, 'before-origin.db');
    const raw = new BetterSqlite3(file);
    const { driver, migrator } = loadBetterSqlite3();
    migrator.migrate(driver.drizzle({ client: raw }), { migrationsFolder: oldMigrations });
    const columns = () =>
      (raw.prepare('pragma table_info(memory_entries)').all() as { name: string }[]).map(
        (column) => column.name,
      );
    expect(columns()).not.toContain('origin');
    const insert = raw.prepare(
      'insert into memory_entries (session_id, content, content_hash, importance_score, type) values (?, ?, ?, ?, ?)',
    );
    const ids = ['note', 'turn', 'summary'].map((type) =>
      Number(insert.run('old', `an old ${type}`, 'x', 0.5, type).lastInsertRowid),
    );
    raw.close();

    const db = await openSqliteDatabase(file);
    try {
      const origins = (await db.memory.getMany(ids)).map((entry) => [entry.type, entry.origin]);
      expect(origins).toStrictEqual([
        ['note', { trust: 'owner', sources: [] }],
        ['turn', { trust: 'hearth', sources: [] }],
        ['summary', { trust: 'hearth', sources: [] }],
      ]);
    } finally {
      await db.close();
    }
  });

  it('adds the history table to a database written before it, keeping what it holds', async () => {
    // A store as the previous release left it: migrated up to 0006_memory_origin, with a row.
    const oldMigrations = join(folder, 'migrations-0006');
    await cp(migrationsFolder, oldMigrations, { recursive: true });
    const journalFile = join(oldMigrations, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
      entries: { tag: string }[];
    };
    journal.entries = journal.entries.filter((entry) => entry.tag < '0007');
    await writeFile(journalFile, JSON.stringify(journal));
    const file = join(folder, 'before-history.db');
    const raw = new BetterSqlite3(file);
    const { driver, migrator } = loadBetterSqlite3();
    migrator.migrate(driver.drizzle({ client: raw }), { migrationsFolder: oldMigrations });
    const tables = () =>
      raw.prepare("select name from sqlite_master where type = 'table'").pluck().all();
    expect(tables()).not.toContain('conversation_messages');
    raw
      .prepare(
        'insert into memory_entries (session_id, content, content_hash, importance_score, type) values (?, ?, ?, ?, ?)',
      )
      .run('old', 'an old note', 'x', 0.5, 'note');
    raw.close();

    const db = await openSqliteDatabase(file);
    try {
      expect((await db.memory.list({ limit: 10 })).map((entry) => entry.content)).toEqual([
        'an old note',
      ]);
      expect(await db.conversations.load('old', 10)).toEqual({
        summary: null,
        messages: [],
        truncated: false,
        earlier: [],
      });
      await db.conversations.append('old', [{ role: 'user', content: 'hello', origin: null }]);
      expect((await db.conversations.load('old', 10)).messages).toHaveLength(1);
    } finally {
      await db.close();
    }
  });

  it("opens a private in-memory store for ':memory:'", async () => {
    const db = await openSqliteDatabase(':memory:');
    try {
      expect(db.kind).toBe('sqlite');
      expect(db.location).toBe(':memory:');
      await expect(db.ping()).resolves.toBe(true);
      await db.settings.set('k', { v: 1 });
      await expect(db.settings.get('k')).resolves.toStrictEqual({ v: 1 });
      const entry = await db.allowlist.add({ pattern: 'ls' });
      await expect(db.allowlist.list()).resolves.toStrictEqual([entry]);
    } finally {
      await db.close();
    }
  });

  it('reports an unusable path as an Error naming it', async () => {
    const blocker = join(folder, 'not-a-folder');
    await writeFile(blocker, 'x');
    await expect(openSqliteDatabase(join(blocker, 'memory.db'))).rejects.toThrow(/not-a-folder/);
  });

  it('is what openDatabase() picks for a file path', async () => {
    const file = join(folder, 'via-open-database.db');
    const db = await openDatabase(file);
    try {
      expect(db.kind).toBe('sqlite');
      expect(db.location).toBe(file);
      await expect(db.ping()).resolves.toBe(true);
    } finally {
      await db.close();
    }
  });
});

runLongTermMemoryConformance(
  'SQLite file',
  () => openSqliteDatabase(join(folder, 'long-term', 'memory.db')),
  { forgetOrigin: (id) => forgetSqliteOrigin(join(folder, 'long-term', 'memory.db'), id) },
);
