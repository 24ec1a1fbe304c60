/**
 * `hearth migrate neuralcleave` through the CLI, against a predecessor state directory the
 * test writes in the predecessor's own formats.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openDatabase } from '@hearth/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePredecessorFixture } from '../../../../gateway/src/migrate/neuralcleave/testing/predecessor-fixture.ts';
import { createHarness, type Harness } from '../../testing/cli-harness.ts';

let h: Harness;
let source: string;

beforeAll(async () => {
  h = await createHarness();
  source = join(h.home, 'neuralcleave-home');
  await mkdir(source);
  await writePredecessorFixture(source);
});

afterAll(async () => {
  await h.cleanup();
});

/** Every file of the Hearth state directory (not the fixture) with its SHA-256. */
async function hearthFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(h.home, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || path.startsWith(source)) continue;
    files[path] = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
  }
  return files;
}

async function memoryRows(): Promise<number> {
  const db = await openDatabase(join(h.home, 'memory.db'));
  try {
    return await db.memory.count();
  } finally {
    await db.close();
  }
}

describe('hearth migrate neuralcleave', () => {
  it('--dry-run prints the report and writes nothing', { timeout: 120_000 }, async () => {
    const before = await hearthFiles();
    const result = await h.run(['migrate', 'neuralcleave', '--source', source, '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Dry run: nothing was written. Migration from ${source}`);
    expect(result.stdout).toContain(
      'models.gemini_api_key → models.google_api_key = (secret) (would be set)',
    );
    expect(result.stdout).toContain('channels.telegram.bot_token: unknown to Hearth, not copied');
    expect(result.stdout).toContain('memory: 4 rows found, 3 would be imported, 1 already present');
    expect(result.stdout).toContain(
      'skills: 1 would be imported (greet), 0 already present, 1 rejected',
    );
    expect(result.stdout).toMatch(
      / {2}shell_out: rejected by the validator: line 1: import subprocess/,
    );
    expect(result.stdout).toContain(
      'push subscriptions: 2 found (https://fcm.googleapis.com, https://updates.push.services.mozilla.com), 2 would be imported, 0 already present, 0 invalid; dry run: nothing written',
    );
    expect(result.stdout).not.toContain('sk-ant-fixture-secret');
    expect(await hearthFiles()).toEqual(before);
  });

  it(
    'a real run brings everything over, and a second run adds nothing',
    { timeout: 180_000 },
    async () => {
      const first = await h.run(['migrate', 'neuralcleave', '--source', source, '--json']);
      expect(first.code, first.stderr).toBe(0);
      const report = JSON.parse(first.stdout) as {
        dry_run: boolean;
        memory: { imported: number; embeddings_skipped: string | null };
        skills: { imported: string[] };
      };
      expect(report.dry_run).toBe(false);
      expect(report.memory.imported).toBe(3);
      // No embedding model in this state directory's cache: rows come over without vectors.
      expect(report.memory.embeddings_skipped).toMatch(/hearth memory models pull/);
      expect(report.skills.imported).toEqual(['greet']);
      expect(await memoryRows()).toBe(3);
      const config = await readFile(join(h.home, 'config.toml'), 'utf8');
      expect(config).toContain('google_api_key = "ENV:GEMINI_API_KEY"');
      expect(await readdir(join(h.home, 'skills'))).toEqual(['greet']);
      // Push subscriptions land in the gateway's own store: by endpoint, 0600.
      const pushStore = join(h.home, 'push-subscriptions.json');
      expect((await stat(pushStore)).mode & 0o777).toBe(0o600);
      const stored = JSON.parse(await readFile(pushStore, 'utf8')) as { endpoint: string }[];
      expect(stored.map((s) => s.endpoint).sort()).toEqual([
        'https://fcm.googleapis.com/fcm/send/abc',
        'https://updates.push.services.mozilla.com/wpush/v2/xyz',
      ]);
      const pushAfterFirst = await readFile(pushStore, 'utf8');

      const filesAfterFirst = await hearthFiles();
      const second = await h.run(['migrate', 'neuralcleave', '--source', source]);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain('memory: 4 rows found, 0 imported, 4 already present');
      expect(second.stdout).toContain('skills: 0 imported, 1 already present, 1 rejected');
      expect(second.stdout).toContain('models.primary → models.primary: already set');
      expect(second.stdout).toMatch(
        /push subscriptions: 2 found \([^)]*\), 0 imported, 2 already present, 0 invalid/,
      );
      expect(await readFile(pushStore, 'utf8')).toBe(pushAfterFirst);
      expect(await memoryRows()).toBe(3);
      expect((await hearthFiles())[join(h.home, 'config.toml')]).toBe(
        filesAfterFirst[join(h.home, 'config.toml')],
      );
    },
  );

  it('an unknown predecessor is a usage error (exit 2); a missing source exits 1', async () => {
    const unknown = await h.run(['migrate', 'openclaw', '--source', source]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Hearth migrates from: neuralcleave.');
    const missing = join(h.home, 'nothing-here');
    expect(await h.run(['migrate', 'neuralcleave', '--source', missing, '--dry-run'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `hearth: there is no predecessor state directory at ${missing}\n`,
    });
  });
});
