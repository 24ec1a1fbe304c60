import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../observability/logger.ts';
import { CONFORMANCE_PATH, runExecutorConformance } from '../conformance.ts';
import type { Executor } from '../ports.ts';
import { createLocalExecutor } from './local-executor.ts';

runExecutorConformance('local', () =>
  createLocalExecutor({ defaultWorkdir: tmpdir(), logger: silentLogger() }),
);

describe('local executor', () => {
  let executor: Executor;
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hearth-local-executor-'));
    executor = createLocalExecutor({ defaultWorkdir: home, logger: silentLogger() });
  });

  afterAll(async () => {
    await executor.close();
    await rm(home, { recursive: true, force: true });
  });

  const env = { PATH: CONFORMANCE_PATH };

  it('says what it is', async () => {
    expect(executor.kind).toBe('local');
    expect(executor.isolation).toBe('process-group');
    expect(await executor.ping()).toBe(true);
  });

  it('runs in its default work area when the request names no workdir', async () => {
    const result = await executor.run({ command: 'pwd', timeoutSeconds: 5, env });
    expect(result.stdout).toBe(`${home}\n`);
  });

  it('rejects a workdir that does not exist, an empty command and a bad timeout', async () => {
    const missing = join(home, 'missing');
    await expect(
      executor.run({ command: 'true', timeoutSeconds: 5, env, workdir: missing }),
    ).rejects.toMatchObject({ code: 'validation', message: /workdir is not a directory/ });
    await expect(executor.run({ command: ' ', timeoutSeconds: 5, env })).rejects.toThrow(/command/);
    await expect(executor.run({ command: 'true', timeoutSeconds: 0, env })).rejects.toThrow(
      /timeoutSeconds/,
    );
  });

  it('kills what the shell left running in the background when the shell ends', async () => {
    const result = await executor.run({
      command: 'sleep 30 & echo $! > bg.pid; echo done',
      timeoutSeconds: 10,
      env,
    });
    expect(result.stdout).toBe('done\n');
    expect(result.durationMs).toBeLessThan(5_000);
    // A killed orphan may linger as a zombie until init reaps it: dead all the same.
    const check = await executor.run({
      command:
        'state=$(cut -d" " -f3 "/proc/$(cat bg.pid)/stat" 2>/dev/null); ' +
        'case "$state" in ""|Z) echo gone ;; *) echo "alive ($state)" ;; esac',
      timeoutSeconds: 5,
      env,
    });
    expect(check.stdout).toBe('gone\n');
  });

  it('cuts truncated output on a UTF-8 character boundary', async () => {
    // "é" is two bytes: a cap of 5 bytes keeps "éé" (4 bytes), never half a character.
    const result = await executor.run({
      command: "printf 'ééé'",
      timeoutSeconds: 5,
      env: { ...env, LANG: 'C.UTF-8' },
      maxOutputBytes: 5,
    });
    expect(result).toMatchObject({ stdout: 'éé', truncated: true });
  });

  it('kills running commands when closed, and refuses new ones', async () => {
    const own = createLocalExecutor({ defaultWorkdir: home, logger: silentLogger() });
    const pending = own.run({ command: 'sleep 30', timeoutSeconds: 60, env });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await own.close();
    const result = await pending;
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false });
    expect(await own.ping()).toBe(false);
    await expect(own.run({ command: 'true', timeoutSeconds: 5, env })).rejects.toThrow(/closed/);
  });
});
