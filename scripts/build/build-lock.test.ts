/**
 * The build lock: a second build (another process) waits while the first holds the lock and
 * goes on once it is released; a lock whose process is gone, or that never got a pid, is
 * taken over instead of waited for forever.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, acquireBuildLock } from './build-lock.ts';

const MODULE = fileURLToPath(new URL('./build-lock.ts', import.meta.url));

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-lock-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A pid no process has now: one that has exited. */
function deadPid(): Promise<number> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['-e', '0'], () => resolve(child.pid!));
  });
}

describe('acquireBuildLock', () => {
  it('makes another process wait until the lock is released', async () => {
    const lock = await acquireBuildLock(root);
    expect(lock.waited).toBe(false);
    expect((await readFile(join(root, LOCK_FILE), 'utf8')).trim()).toBe(String(process.pid));

    const script =
      `import { acquireBuildLock } from ${JSON.stringify(MODULE)};\n` +
      `const lock = await acquireBuildLock(${JSON.stringify(root)}, (pid) => console.log('waiting for', pid));\n` +
      `console.log('acquired, waited:', lock.waited);\n`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

    await expect.poll(() => stdout, { timeout: 10_000 }).toContain(`waiting for ${process.pid}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(stdout).not.toContain('acquired');

    lock.release();
    expect(await exited).toBe(0);
    expect(stdout).toContain('acquired, waited: true');
    // Released when that process exited.
    await expect(readFile(join(root, LOCK_FILE), 'utf8')).rejects.toThrow();
  });

  it('takes over the lock of a process that is gone', async () => {
    await writeFile(join(root, LOCK_FILE), `${await deadPid()}\n`);
    const lock = await acquireBuildLock(root);
    expect(lock.waited).toBe(false);
    expect((await readFile(join(root, LOCK_FILE), 'utf8')).trim()).toBe(String(process.pid));
    lock.release();
  });

  it('takes over a lock that never got a pid, after a short wait', async () => {
    await writeFile(join(root, LOCK_FILE), '');
    const started = performance.now();
    const lock = await acquireBuildLock(root);
    expect(performance.now() - started).toBeGreaterThan(1_500);
    lock.release();
  });
});
