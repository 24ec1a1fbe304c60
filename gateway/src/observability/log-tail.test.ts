import { describe, expect, it } from 'vitest';
import { createLogTail, MAX_MESSAGE_CHARS, parseLine } from './log-tail.ts';
import { createLogger } from './logger.ts';

const nowhere = { write: () => true };

describe('log tail', () => {
  it('keeps what the logger writes, with level names, areas and error messages', () => {
    const tail = createLogTail();
    const logger = createLogger({ level: 'info', pretty: false, destination: nowhere, tail });
    logger.child({ area: 'providers' }).warn('primary unreachable');
    logger.error({ err: new Error('disk full') }, 'backup failed');
    logger.debug('below the level: not kept');

    const lines = tail.recent(10);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'primary unreachable', area: 'providers' }),
      expect.objectContaining({ level: 'error', msg: 'backup failed: disk full' }),
    ]);
    expect(new Date(lines[0]!.time).toISOString()).toBe(lines[0]!.time);
  });

  it('keeps only the newest `capacity` lines, oldest first', () => {
    const tail = createLogTail({ capacity: 3 });
    for (let i = 1; i <= 5; i += 1) tail.destination.write(`{"level":30,"msg":"line ${i}"}\n`);
    expect(tail.recent(10).map((line) => line.msg)).toEqual(['line 3', 'line 4', 'line 5']);
    expect(tail.recent(1).map((line) => line.msg)).toEqual(['line 5']);
    expect(tail.recent(0)).toEqual([]);
  });

  it('hands new lines to subscribers until they unsubscribe; a throwing one breaks nothing', () => {
    const tail = createLogTail();
    const seen: string[] = [];
    tail.subscribe(() => {
      throw new Error('broken listener');
    });
    const stop = tail.subscribe((line) => seen.push(line.msg));
    tail.destination.write('{"level":30,"msg":"one"}\n');
    stop();
    tail.destination.write('{"level":30,"msg":"two"}\n');
    expect(seen).toEqual(['one']);
    expect(tail.recent(5)).toHaveLength(2);
  });

  it('ignores what is not a JSON record and cuts very long messages', () => {
    expect(parseLine('')).toBeUndefined();
    expect(parseLine('not json')).toBeUndefined();
    expect(parseLine('[1,2]')).toBeUndefined();
    expect(parseLine('null')).toBeUndefined();
    const long = parseLine(JSON.stringify({ level: 30, msg: 'x'.repeat(10_000) }));
    expect(long?.msg).toHaveLength(MAX_MESSAGE_CHARS + 1);
    expect(parseLine('{"level":99,"msg":"odd level","time":"not a number"}')).toMatchObject({
      level: 'info',
      msg: 'odd level',
    });
  });
});
