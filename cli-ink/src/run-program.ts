import { spawn } from 'node:child_process';
import type { ProgramResult, RunProgram } from './deps.ts';

/** Output kept per stream (a program that prints more is cut). */
const MAX_OUTPUT = 1_048_576;

/**
 * The real RunProgram: spawns `command` without a shell (arguments are never interpreted),
 * collects its output, and kills it after `timeoutMs`. `detached` leaves it running (a browser
 * opener) and resolves at once.
 */
export const runProgram: RunProgram = (command, args, options = {}) =>
  new Promise<ProgramResult>((resolve) => {
    const child = spawn(command, [...args], {
      stdio: options.detached ? 'ignore' : ['ignore', 'pipe', 'pipe'],
      detached: options.detached === true,
      timeout: options.timeoutMs ?? 15_000,
      env: options.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk.toString('utf8');
    });
    child.once('error', (error) => resolve({ code: null, stdout, stderr, error: error.message }));
    if (options.detached) {
      child.once('spawn', () => {
        child.unref();
        resolve({ code: 0, stdout: '', stderr: '' });
      });
      return;
    }
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
