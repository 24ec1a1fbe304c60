import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, formatExecResult, parseExecBody } from './exec-body.ts';

describe('POST /exec body', () => {
  it('accepts the minimal body and fills the defaults', () => {
    expect(parseExecBody({ command: 'ls', timeout_seconds: 30 })).toEqual({
      ok: true,
      request: {
        command: 'ls',
        timeoutSeconds: 30,
        env: {},
        network: false,
        maxOutputBytes: DEFAULT_LIMITS.defaultOutputBytes,
      },
    });
  });

  it('accepts every field', () => {
    const body = {
      command: 'make test',
      timeout_seconds: 0.5,
      workdir: '/work/project',
      env: { PATH: '/usr/bin', EMPTY: '' },
      network: true,
      max_output_bytes: 0,
    };
    expect(parseExecBody(body)).toEqual({
      ok: true,
      request: {
        command: 'make test',
        timeoutSeconds: 0.5,
        workdir: '/work/project',
        env: { PATH: '/usr/bin', EMPTY: '' },
        network: true,
        maxOutputBytes: 0,
      },
    });
  });

  it.each([
    [null, /JSON object/],
    ['ls', /JSON object/],
    [[], /JSON object/],
    [{ timeout_seconds: 1 }, /^command/],
    [{ command: '   ', timeout_seconds: 1 }, /^command/],
    [{ command: 'a\0b', timeout_seconds: 1 }, /^command/],
    [{ command: 'ls' }, /^timeout_seconds/],
    [{ command: 'ls', timeout_seconds: '5' }, /^timeout_seconds/],
    [{ command: 'ls', timeout_seconds: 0 }, /^timeout_seconds/],
    [{ command: 'ls', timeout_seconds: 3601 }, /^timeout_seconds/],
    [{ command: 'ls', timeout_seconds: Number.NaN }, /^timeout_seconds/],
    [{ command: 'ls', timeout_seconds: 1, workdir: 'relative' }, /^workdir/],
    [{ command: 'ls', timeout_seconds: 1, env: ['A=1'] }, /^env/],
    [{ command: 'ls', timeout_seconds: 1, env: { 'A=B': 'x' } }, /^env: invalid variable name/],
    [{ command: 'ls', timeout_seconds: 1, env: { A: 1 } }, /^env\.A/],
    [{ command: 'ls', timeout_seconds: 1, network: 1 }, /^network/],
    [{ command: 'ls', timeout_seconds: 1, max_output_bytes: -1 }, /^max_output_bytes/],
    [{ command: 'ls', timeout_seconds: 1, max_output_bytes: 9e6 }, /^max_output_bytes/],
    [{ command: 'ls', timeout_seconds: 1, cwd: '/' }, /^unknown field: cwd/],
  ])('rejects %j', (body, detail) => {
    const parsed = parseExecBody(body);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.detail).toMatch(detail);
  });

  it('formats a result in snake_case', () => {
    expect(
      formatExecResult({
        exitCode: null,
        signal: 'SIGKILL',
        stdout: 'a',
        stderr: 'b',
        timedOut: true,
        truncated: false,
        durationMs: 1.23456,
      }),
    ).toEqual({
      exit_code: null,
      signal: 'SIGKILL',
      stdout: 'a',
      stderr: 'b',
      timed_out: true,
      truncated: false,
      duration_ms: 1.235,
    });
  });
});
