import { afterEach, describe, expect, it } from 'vitest';
import { analyseCommand } from './analyse-command.ts';
import {
  createCommandAnalyser,
  DEFAULT_HEAP_LIMIT_MB,
  DEFAULT_YOUNG_MB,
  type CommandAnalyser,
} from './command-analyser.ts';

describe('command lines are analysed on a worker thread', () => {
  let analyser: CommandAnalyser | undefined;
  afterEach(async () => {
    await analyser?.close();
  });

  it('gives the same analysis as the parser itself', async () => {
    analyser = createCommandAnalyser();
    for (const line of [
      'ls -la',
      'git status && rm -rf build',
      'echo $(id)',
      "sh -c 'ls | wc -l'",
    ]) {
      expect(await analyser.analyse(line)).toEqual(analyseCommand(line));
    }
  });

  it('keeps the event loop free while a long line is parsed', async () => {
    analyser = createCommandAnalyser();
    await analyser.analyse('ls'); // the worker and the parser are loaded
    const line = `ls ${Array.from({ length: 4_000 }, () => 'a').join(' ')}`;
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const at = performance.now();
      longestGap = Math.max(longestGap, at - last);
      last = at;
    }, 5);
    const analysis = await analyser.analyse(line);
    clearInterval(ticker);
    expect(analysis.commands[0]?.argv.length ?? analysis.opaque).toBeTruthy();
    // Parsed on the event loop this 8 KB line holds it for 0.5–3 s on these machines.
    expect(longestGap).toBeLessThan(250);
  });

  it('judges a line opaque when its analysis takes too long, and recovers', async () => {
    analyser = createCommandAnalyser({ timeoutMs: 1 });
    const line = `ls ${Array.from({ length: 3_000 }, () => 'a').join(' ')}`;
    expect(await analyser.analyse(line)).toEqual({
      commands: [],
      opaque: 'command analysis took too long',
    });
    await analyser.close();
    analyser = createCommandAnalyser({ timeoutMs: 10_000 });
    expect((await analyser.analyse('ls -la')).commands[0]?.argv).toEqual(['ls', '-la']);
  });

  it('answers concurrent requests each with its own analysis', async () => {
    analyser = createCommandAnalyser();
    const lines = Array.from({ length: 20 }, (_, i) => `echo ${i}`);
    const results = await Promise.all(lines.map((line) => analyser!.analyse(line)));
    expect(results.map((r) => r.commands[0]?.argv[1])).toEqual(lines.map((_, i) => String(i)));
  });

  it('keeps the worker’s heap within its limit over many lines (it grew to ~170 MB unbounded)', async () => {
    analyser = createCommandAnalyser();
    expect(await analyser.heap()).toBeNull();
    let largest = 0;
    for (let i = 0; i < 1_500; i += 1) {
      const line =
        i % 2 === 0 ? `echo soak-approval-${i}` : `mcp:fx/echo '{"text":"soak#${i}","n":${i}}'`;
      expect((await analyser.analyse(line)).commands.length).toBeGreaterThan(0);
      if (i % 50 === 0) largest = Math.max(largest, (await analyser.heap())?.total ?? 0);
    }
    largest = Math.max(largest, (await analyser.heap())?.total ?? 0);
    expect(largest).toBeGreaterThan(0);
    // Old and young generation within their limits, plus code and the other small spaces.
    expect(largest / 1_048_576).toBeLessThan(DEFAULT_HEAP_LIMIT_MB + DEFAULT_YOUNG_MB + 16);
    await analyser.close();
    expect(await analyser.heap()).toBeNull();
  });

  it('judges every waiting line opaque, naming the limit, when the worker runs out of memory', async () => {
    const failures: string[] = [];
    // Room for the worker to start (V8 itself needs ~3 MB), not to load the parser: the worker
    // runs out of memory at its first line.
    analyser = createCommandAnalyser({
      heapLimitMb: 4,
      onFailure: (reason) => failures.push(reason),
    });
    const reason = 'command analysis ran out of memory (limit 4 MB)';
    expect(await Promise.all([analyser.analyse('ls'), analyser.analyse('pwd')])).toEqual([
      { commands: [], opaque: reason },
      { commands: [], opaque: reason },
    ]);
    expect(failures).toEqual([reason]);
    // The next line gets a new worker (which fails the same way here): never a rejection.
    expect(await analyser.analyse('ls')).toEqual({ commands: [], opaque: reason });
  });
});
