import { describe, expect, it } from 'vitest';
import { summariseLogLine } from './log-lines.ts';

describe('summariseLogLine', () => {
  it('turns a JSON log record into level, message and error', () => {
    const line = JSON.stringify({
      level: 50,
      msg: 'start-up failed',
      err: { message: 'boom', stack: 'x' },
    });
    expect(summariseLogLine(line)).toBe('error: start-up failed (boom)');
  });

  it('keeps other lines as they are', () => {
    expect(summariseLogLine('hearth: start-up failed: database: boom')).toBe(
      'hearth: start-up failed: database: boom',
    );
    expect(summariseLogLine('{not json')).toBe('{not json');
  });
});
