import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/load.ts';
import { openDatabase } from '../../db/open-database.ts';
import type { Database } from '../../db/ports.ts';
import { createHashEmbedder } from '../../memory/embedder/hash-embedder.ts';
import { createSkillValidator } from '../../skills/validate/validator.ts';
import { withLocalSkillStore } from '../../skills/store/local-skill-store.ts';
import { migrateNeuralcleave, type MigrationReport } from './migrate.ts';
import { PUSH_IMPORTED_NOTE } from './push-subscriptions.ts';
import { openSubscriptionFile, subscriptionSchema } from '../../push/subscriptions.ts';
import { storeTarget } from './skills.ts';
import { writePredecessorFixture } from './testing/predecessor-fixture.ts';

let root: string;
let source: string;
let home: string;
let db: Database;
/** The first run's report (the machine is slow: each run validates skills with python3). */
let report: MigrationReport;

async function freshSite(): Promise<void> {
  root = await mkdtemp(join(tmpdir(), 'hearth-migrate-'));
  source = join(root, '.neuralcleave');
  home = join(root, '.hearth');
  await mkdir(source);
  await mkdir(home);
  await writePredecessorFixture(source);
  db = await openDatabase(join(home, 'memory.db'));
}

async function removeSite(): Promise<void> {
  await db.close();
  await rm(root, { recursive: true, force: true });
}

const migrate = (embedder = createHashEmbedder()): Promise<MigrationReport> =>
  withLocalSkillStore(home, (store) =>
    migrateNeuralcleave({
      source,
      configPath: join(home, 'config.toml'),
      dryRun: false,
      database: db,
      skills: storeTarget(store),
      validate: createSkillValidator(),
      embedder,
      pushStorePath: join(home, 'push-subscriptions.json'),
    }),
  );

describe('migrate neuralcleave (library)', () => {
  beforeAll(async () => {
    await freshSite();
    report = await migrate();
  }, 120_000);
  afterAll(removeSite);

  it('imports memory rows with content, importance, tags, type and timestamps, and embeds them', async () => {
    expect(report.memory).toEqual({
      found: 4,
      imported: 3,
      duplicates: 1,
      invalid: [],
      embedded: 3,
      embeddings_skipped: null,
    });
    const rows = (await db.memory.list({ limit: 10 })).sort((a, b) => a.created_at - b.created_at);
    expect(
      rows.map((r) => [r.session_id, r.content, r.importance_score, r.tags, r.type, r.created_at]),
    ).toEqual([
      [
        'telegram:42',
        'User prefers concise answers.',
        0.9,
        ['preference', 'style'],
        'preference',
        1740823200,
      ],
      ['telegram:42', 'The cat is called Miso.', 0.7, ['pets', 'family'], 'general', 1743582600],
      ['web:abc', 'Project Hearth ships in November.', 1, [], 'fact', 1746273600],
    ]);
    expect(await db.memory.embeddings(0, 10)).toHaveLength(3);
  });

  it('maps config keys, keeps secrets as they were written, and reports the rest', async () => {
    const config = parseConfig(await readFile(join(home, 'config.toml'), 'utf8'), 'config.toml');
    expect(config.models).toMatchObject({
      primary: 'claude-opus-4-8',
      fallback: 'gemini-2.5-flash',
      anthropic_api_key: 'sk-ant-fixture-secret',
      google_api_key: 'ENV:GEMINI_API_KEY',
      ollama_base_url: 'http://localhost:11434',
    });
    expect(config.memory).toMatchObject({
      short_term_ttl: 1800,
      long_term_days: 30,
      cache_url: 'redis://localhost:6379',
      vector_store_url: 'http://localhost:6333',
      db_path: '',
    });
    expect(config.gateway.host).toBe('127.0.0.1');
    expect(config.gateway.port).toBe(7432);
    expect(report.config.set).toContainEqual({
      from: 'models.anthropic_api_key',
      to: 'models.anthropic_api_key',
      value: '(secret)',
    });
    expect(JSON.stringify(report)).not.toContain('sk-ant-fixture-secret');
    expect(report.config.invalid).toEqual([
      { from: 'gateway.port', to: 'gateway.port', reason: expect.stringContaining('number') },
    ]);
    expect(report.config.handled).toEqual([
      {
        from: 'memory.sqlite_path',
        reason: 'its rows are imported into Hearth’s long-term store instead',
      },
    ]);
    expect(report.config.unknown).toEqual([
      'agent.name',
      'models.qianfan_api_key',
      'voice.tts',
      'ui.web_port',
      'channels.telegram.enabled',
      'channels.telegram.bot_token',
    ]);
  });

  it('installs valid skill.py files through Hearth’s validator and reports rejected ones', async () => {
    expect(report.skills.imported).toEqual(['greet']);
    expect(report.skills.rejected).toEqual([
      { name: 'shell_out', reason: expect.stringContaining('subprocess is blocked in a skill') },
    ]);
    expect(await readFile(join(home, 'skills', 'greet', 'skill.py'), 'utf8')).toContain(
      'def greet',
    );
    await expect(readFile(join(home, 'skills', 'shell_out', 'skill.py'))).rejects.toThrow();
    expect(
      JSON.parse(await readFile(join(home, 'skills', 'greet', 'skill.json'), 'utf8')),
    ).toMatchObject({ kind: 'py', origin: 'migrate:neuralcleave', state: 'active' });
  });

  it('imports push subscriptions into the push store, in its format, and reports the allowlist', async () => {
    expect(report.push_subscriptions).toEqual({
      found: 2,
      imported: 2,
      duplicates: 0,
      invalid: [],
      services: ['https://fcm.googleapis.com', 'https://updates.push.services.mozilla.com'],
      note: PUSH_IMPORTED_NOTE,
    });
    const path = join(home, 'push-subscriptions.json');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    // What the gateway's push area reads at start.
    const store = await openSubscriptionFile(path);
    const records = store.list().sort((a, b) => a.endpoint.localeCompare(b.endpoint));
    expect(records).toEqual([
      {
        endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
        expirationTime: null,
        keys: { p256dh: expect.stringMatching(/^BNcR/), auth: 'tBHItJI5svbpez7KI4CCXg' },
        created_at: '2025-05-01T00:00:00.000Z',
      },
      {
        endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/xyz',
        expirationTime: null,
        keys: { p256dh: expect.stringMatching(/^BNcR/), auth: 'tBHItJI5svbpez7KI4CCXg' },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    for (const record of records)
      expect(subscriptionSchema.safeParse(record).success, record.endpoint).toBe(true);
    expect(report.allowlist).toMatchObject({ found: 0, imported: 0 });
  });

  it('is idempotent: a second run adds nothing', { timeout: 120_000 }, async () => {
    const configAfterFirst = await readFile(join(home, 'config.toml'), 'utf8');
    const second = await migrate();
    expect(second.memory).toMatchObject({ found: 4, imported: 0, duplicates: 4 });
    expect(await db.memory.count()).toBe(3);
    expect(second.skills).toEqual({
      imported: [],
      unchanged: ['greet'],
      rejected: expect.any(Array),
    });
    expect(second.config.set).toEqual([]);
    expect(second.push_subscriptions).toMatchObject({ found: 2, imported: 0, duplicates: 2 });
    expect(JSON.parse(await readFile(join(home, 'push-subscriptions.json'), 'utf8'))).toHaveLength(
      2,
    );
    expect(second.config.kept.every((key) => key.same)).toBe(true);
    expect(await readFile(join(home, 'config.toml'), 'utf8')).toBe(configAfterFirst);
  });
});

describe('migrate neuralcleave without an embedding model', () => {
  beforeAll(freshSite);
  afterAll(removeSite);

  it(
    'stores rows without embeddings, and says why, when the model is unavailable',
    { timeout: 120_000 },
    async () => {
      const unavailable = createHashEmbedder();
      const broken = {
        ...unavailable,
        state: 'unavailable' as const,
        detail: 'no model in the cache',
        embed: () => Promise.reject(new Error('no model')),
      };
      const without = await migrate(broken);
      expect(without.memory).toMatchObject({
        imported: 3,
        embedded: 0,
        embeddings_skipped: 'no model in the cache',
      });
    },
  );
});
