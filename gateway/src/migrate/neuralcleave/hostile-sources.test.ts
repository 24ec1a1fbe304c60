import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ValidateSkill } from '../../skills/ports.ts';
import { migrateNeuralcleave } from './migrate.ts';
import { readOnlyTarget } from './skills.ts';

let root: string;
let source: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-migrate-hostile-'));
  source = join(root, '.neuralcleave');
  home = join(root, '.hearth');
  await mkdir(join(source, 'skills'), { recursive: true });
  await mkdir(home);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** These sources never reach the validator: it fails the test if called. */
const validate: ValidateSkill = () => Promise.reject(new Error('validator must not run'));

const migrate = (dryRun = false) =>
  migrateNeuralcleave({
    source,
    configPath: join(home, 'config.toml'),
    dryRun,
    skills: readOnlyTarget(join(home, 'skills')),
    validate,
    pushStorePath: join(home, 'push-subscriptions.json'),
  });

describe('migrate neuralcleave refuses broken or hostile sources', () => {
  it('a config.toml that is not TOML: refused, nothing written', async () => {
    await writeFile(join(source, 'config.toml'), '[models\nprimary = ');
    await expect(migrate()).rejects.toThrow(/config\.toml is not valid TOML/);
    expect(await readdir(home)).toEqual([]);
  });

  it('a memory.db that is not a database, or lacks the table: refused before config is written', async () => {
    await writeFile(join(source, 'config.toml'), '[gateway]\nport = 8000\n');
    await writeFile(join(source, 'memory.db'), 'not sqlite at all, just text '.repeat(100));
    await expect(migrate()).rejects.toThrow(/is not the predecessor's memory database/);
    await rm(join(source, 'memory.db'));
    new Database(join(source, 'memory.db')).close();
    await expect(migrate()).rejects.toThrow(/no such table: memory_entries/);
    expect(await readdir(home)).toEqual([]);
  });

  it('rows with values of the wrong type are reported, not imported', async () => {
    const db = new Database(join(source, 'memory.db'));
    db.exec(
      `CREATE TABLE memory_entries (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
       content TEXT NOT NULL, importance_score REAL NOT NULL DEFAULT 0.5,
       memory_type TEXT NOT NULL DEFAULT 'general', tags TEXT NOT NULL DEFAULT '',
       created_at TEXT NOT NULL, last_accessed_at TEXT NOT NULL)`,
    );
    db.prepare(
      `INSERT INTO memory_entries (session_id, content, importance_score, created_at, last_accessed_at)
       VALUES ('s', 'fine', 'very important', 'x', 'x')`,
    ).run();
    db.close();
    const report = await migrate(true);
    expect(report.memory).toMatchObject({ found: 1, imported: 0, invalid: [{ id: 1 }] });
  });

  it('skill folders that are links, files that are links, huge files and bad names are rejected unread', async () => {
    await mkdir(join(root, 'outside'));
    await writeFile(join(root, 'outside', 'skill.py'), 'import subprocess\n');
    await symlink(join(root, 'outside'), join(source, 'skills', 'linked_dir'));
    await mkdir(join(source, 'skills', 'linked_file'));
    await symlink(
      join(root, 'outside', 'skill.py'),
      join(source, 'skills', 'linked_file', 'skill.py'),
    );
    await mkdir(join(source, 'skills', 'huge'));
    await writeFile(join(source, 'skills', 'huge', 'skill.py'), 'x'.repeat(300 * 1024));
    await mkdir(join(source, 'skills', '9lives'));
    await writeFile(join(source, 'skills', '9lives', 'skill.py'), 'def f():\n    pass\n');
    await writeFile(join(source, 'skills', 'stray.txt'), '');
    const report = await migrate();
    expect(report.skills.imported).toEqual([]);
    expect(report.skills.rejected).toEqual([
      { name: 'linked_dir', reason: 'a symbolic link (not followed)' },
      { name: 'stray.txt', reason: 'not a skill folder' },
      { name: '9lives', reason: expect.stringContaining('the name must start with a letter') },
      { name: 'huge', reason: 'skill.py is larger than 262144 bytes' },
      { name: 'linked_file', reason: 'no skill.py (or it is not a regular file)' },
    ]);
    expect(await readdir(home)).toEqual([]);
  });

  it('a push_subscriptions.json that is not JSON, or not subscriptions, is reported', async () => {
    await writeFile(join(source, 'push_subscriptions.json'), '{not json');
    expect((await migrate(true)).push_subscriptions).toMatchObject({
      found: 0,
      note: expect.stringContaining('is not valid JSON'),
    });
    await writeFile(join(source, 'push_subscriptions.json'), '[1, 2]');
    expect((await migrate(true)).push_subscriptions).toMatchObject({
      found: 0,
      note: expect.stringContaining('expected an object of subscriptions by id'),
    });
    expect(await readdir(home)).toEqual([]);
  });

  it('invalid push subscriptions are reported by id and not copied; valid ones still are', async () => {
    const valid = {
      endpoint: 'https://push.example.org/s/1',
      p256dh: `B${'A'.repeat(86)}`,
      auth: 'tBHItJI5svbpez7KI4CCXg',
    };
    await writeFile(
      join(source, 'push_subscriptions.json'),
      JSON.stringify({
        script: { endpoint: 'javascript:alert(1)', p256dh: 'x', auth: 'y' },
        plain_http: { ...valid, endpoint: 'http://push.example.org/s/2' },
        short_key: { ...valid, endpoint: 'https://push.example.org/s/3', p256dh: 'BAAA' },
        not_a_point: { ...valid, endpoint: 'https://push.example.org/s/4', p256dh: 'A'.repeat(87) },
        short_auth: { ...valid, endpoint: 'https://push.example.org/s/5', auth: 'abc' },
        not_an_object: 'https://push.example.org/s/6',
        huge_endpoint: { ...valid, endpoint: `https://push.example.org/${'x'.repeat(3000)}` },
        ok: valid,
        same_endpoint_again: valid,
      }),
    );
    const dry = (await migrate(true)).push_subscriptions;
    expect(dry).toMatchObject({ found: 9, imported: 1, duplicates: 1 });
    expect(dry.invalid.map((entry) => entry.id)).toEqual([
      'script',
      'plain_http',
      'short_key',
      'not_a_point',
      'short_auth',
      'not_an_object',
      'huge_endpoint',
    ]);
    expect(await readdir(home)).toEqual([]);

    const real = (await migrate()).push_subscriptions;
    expect(real).toMatchObject({ found: 9, imported: 1, duplicates: 1 });
    const stored = JSON.parse(await readFile(join(home, 'push-subscriptions.json'), 'utf8')) as {
      endpoint: string;
    }[];
    expect(stored.map((s) => s.endpoint)).toEqual([valid.endpoint]);
  });
});
