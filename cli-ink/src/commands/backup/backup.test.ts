/**
 * `hearth backup …` end to end: the archive is taken by a separate `hearth` process while a
 * real gateway on the same state directory keeps acknowledging writes, then verified and
 * restored through the CLI.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '@hearth/gateway';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway } from '../../../../gateway/src/testing/gateway/test-gateway.ts';
import { manifestListing, rawTarGz } from '../../../../gateway/src/backup/testing/raw-tar.ts';
import {
  CLI_SOURCE_PATH,
  createHarness,
  type CliResult,
  type Harness,
} from '../../testing/cli-harness.ts';

function hearthProcess(home: string, args: readonly string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, HEARTH_HOME: home, HEARTH_LOG_LEVEL: 'silent' };
  delete env.HEARTH_CONFIG;
  delete env.HEARTH_AUDIT_DB_PATH;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_SOURCE_PATH, ...args],
      { env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let h: Harness;
/** The state directory, one level down so that backups/ beside it stays inside the harness. */
let home: string;

beforeEach(async () => {
  h = await createHarness();
  home = join(h.home, '.hearth');
  await mkdir(home, { mode: 0o700 });
});

afterEach(async () => {
  await h.cleanup();
});

const backupsDir = () => join(h.home, 'backups');
const run = (argv: readonly string[], variables: Record<string, string> = {}) =>
  h.run(argv, { HEARTH_HOME: home, ...variables });

describe('hearth backup', () => {
  it('round trip under concurrent writes: every row the gateway acknowledged before the backup is restored', async () => {
    // A store with some weight, so the snapshot is not instantaneous.
    const seed = await openDatabase(join(home, 'memory.db'));
    for (let i = 0; i < 300; i += 1)
      await seed.memory.insert({
        session_id: 'seed',
        content: `seed row ${i} ${'x'.repeat(2000)}`,
        importance_score: 0.5,
      });
    await seed.close();

    const gw = await startTestGateway({ home });
    try {
      await gw.gateway.whenReady();
      const acked: { content: string; at: number }[] = [];
      let writing = true;
      let sent = 0;
      const writer = async () => {
        while (writing) {
          const content = `acknowledged row ${(sent += 1)}`;
          const res = await fetch(`${gw.url}/api/v1/memory`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ content, session_id: 'writes' }),
          });
          if (res.status === 200) acked.push({ content, at: performance.now() });
          else throw new Error(`write failed: ${res.status} ${await res.text()}`);
        }
      };
      const writers = [writer(), writer(), writer()];
      while (acked.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));

      const startedAt = performance.now();
      const created = await hearthProcess(home, ['backup', 'create', '--json']);
      const finishedAt = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 200));
      writing = false;
      await Promise.all(writers);

      expect(created.code, created.stderr).toBe(0);
      const { archive } = JSON.parse(created.stdout) as { archive: string };
      expect(dirname(archive)).toBe(backupsDir());
      expect((await stat(archive)).mode & 0o777).toBe(0o600);
      expect((await stat(backupsDir())).mode & 0o777).toBe(0o700);
      const during = acked.filter((a) => a.at >= startedAt && a.at <= finishedAt);
      expect(during.length).toBeGreaterThan(0); // the gateway kept writing meanwhile

      const verified = await run(['backup', 'verify', archive]);
      expect(verified.code, verified.stdout).toBe(0);
      expect(verified.stdout).toMatch(
        /^OK: .*\n {2}\d+ files match the manifest's SHA-256; integrity_check: state\/memory.db ok, state\/privacy_audit.db ok\n$/,
      );

      const target = join(h.home, 'restored');
      const restored = await run(['backup', 'restore', archive, '--target', target]);
      expect(restored).toMatchObject({ code: 0, stderr: '' });
      expect(restored.stdout).toMatch(/^Restored \d+ files into .*restored\.\n$/);

      const copy = new Database(join(target, 'memory.db'), { readonly: true });
      try {
        const rows = copy
          .prepare("select content from memory_entries where session_id = 'writes'")
          .all() as { content: string }[];
        const present = new Set(rows.map((row) => row.content));
        const before = acked.filter((a) => a.at < startedAt);
        expect(before.length, `${acked.length} acknowledged`).toBeGreaterThan(0);
        expect(before.filter((a) => !present.has(a.content))).toEqual([]);
        // Nothing torn or invented: every restored row is one a writer sent.
        const sentRows = new Set(
          Array.from({ length: sent }, (_, i) => `acknowledged row ${i + 1}`),
        );
        expect(rows.filter((row) => !sentRows.has(row.content))).toEqual([]);
        expect(
          copy.prepare("select count(*) as n from memory_entries where session_id = 'seed'").get(),
        ).toEqual({ n: 300 });
      } finally {
        copy.close();
      }
      // The gateway is still serving after the backup.
      const after = await fetch(`${gw.url}/api/v1/memory`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'after the backup' }),
      });
      expect(after.status).toBe(200);
    } finally {
      await gw.gateway.close();
    }
  }, 120_000);

  it('list shows the archives newest first, with --json', async () => {
    await writeFile(join(home, 'config.toml'), '');
    expect(await run(['backup', 'list'])).toEqual({
      code: 0,
      stdout: `No backups in ${backupsDir()}.\n`,
      stderr: '',
    });
    const created = await run(['backup', 'create', '--json']);
    expect(created.code).toBe(0);
    const { archive, size, members } = JSON.parse(created.stdout) as {
      archive: string;
      size: number;
      members: { path: string }[];
    };
    expect(members.map((m) => m.path)).toEqual(['state/config.toml']);
    const listed = await run(['backup', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: archive.split('/').at(-1), path: archive, size, modified_at: expect.any(String) },
    ]);
    expect((await run(['backup', 'list'])).stdout).toContain(archive.split('/').at(-1));
  });

  it('restore refuses a non-empty target without --force (spec, Errors 10) and replaces it with it', async () => {
    await writeFile(join(home, 'config.toml'), '[gateway]\nport = 7555\n');
    const { archive } = JSON.parse((await run(['backup', 'create', '--json'])).stdout) as {
      archive: string;
    };
    const target = join(h.home, 'busy');
    await mkdir(target);
    await writeFile(join(target, 'precious.txt'), 'keep');
    const refused = await run(['backup', 'restore', archive, '--target', target]);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `hearth: ${target} is not empty: restore refuses to write into it (add --force to replace it)\n`,
    });
    expect(await readdir(target)).toEqual(['precious.txt']);

    // A bare archive name is found in the backups directory.
    const name = archive.split('/').at(-1) ?? '';
    const forced = await run(['backup', 'restore', name, '--target', target, '--force', '--json']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ ok: true, replaced: true, problems: [] });
    expect(await readdir(target)).toEqual(['config.toml']);
  });

  it('a hostile archive is rejected through the CLI, exit 1, nothing written', async () => {
    const archive = join(h.home, 'evil.tar.gz');
    await writeFile(
      archive,
      // A valid manifest, so that the refusal is the member's own.
      rawTarGz([manifestListing([]), { path: 'state/../../escaped.txt', body: 'pwned' }]),
    );
    const target = join(h.home, 'victim');
    const result = await run(['backup', 'restore', archive, '--target', target]);
    expect(result).toEqual({
      code: 1,
      stdout: `REJECTED: ${archive}; nothing was written\n  - "state/../../escaped.txt": path traversal (..)\n`,
      stderr: `hearth: ${archive} was not restored; nothing was written\n`,
    });
    expect(await readdir(h.home)).not.toContain('victim');
    const verified = await run(['backup', 'verify', archive, '--json']);
    expect(verified.code).toBe(1);
    expect(JSON.parse(verified.stdout)).toMatchObject({
      ok: false,
      problems: ['"state/../../escaped.txt": path traversal (..)'],
    });
  });

  it('usage errors exit 2; a missing archive or state directory exit 1', async () => {
    expect((await run(['backup', 'restore', 'x.tar.gz'])).code).toBe(2);
    expect((await run(['backup', 'verify'])).code).toBe(2);
    expect(await run(['backup', 'verify', 'nope.tar.gz'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'hearth: no such archive: nope.tar.gz\n',
    });
    const gone = join(h.home, 'not-there');
    expect(await run(['backup', 'create'], { HEARTH_HOME: gone })).toEqual({
      code: 1,
      stdout: '',
      stderr: `hearth: there is no state directory at ${gone}\n`,
    });
  });
});
