import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HearthError } from '../../errors.ts';
import type { SkillProblem, SkillToolSpec, ValidationResult } from '../types.ts';
import { checkCapabilities } from './capabilities.ts';

/** The helper sits beside this file, in the sources and in dist/ (scripts/build.ts copies it). */
export const pythonHelperPath = fileURLToPath(new URL('./validate_skill.py', import.meta.url));

const maxOutputBytes = 4 * 1024 * 1024;

/**
 * Layer 1 for seed-format `skill.py`: Python's own `ast` parses it, in `python3 -I -S`
 * (isolated: no PYTHON* variables, no working directory on the path, no site packages or
 * their .pth start-up code), running only the helper; the source goes in on stdin, never as a file or argument. A missing python3, a
 * timeout or a helper crash is an error, never a pass.
 */
export function validatePythonSkill(
  source: string,
  options: { python3Path: string; timeoutMs: number },
): Promise<ValidationResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.python3Path, ['-I', '-S', pythonHelperPath], {
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutputBytes) child.kill('SIGKILL');
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.stdin.on('error', () => {}); // the exit status says what happened
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new HearthError(
              'unavailable',
              `Checking a skill.py needs python3, which was not found (${options.python3Path})`,
            )
          : new HearthError('unavailable', `Checking a skill.py failed: ${error.message}`, {
              cause: error,
            }),
      );
    });
    child.on('close', (code, signal) => {
      if (signal !== null || code !== 0) {
        const why =
          signal === 'SIGKILL' && stdoutBytes <= maxOutputBytes
            ? `took longer than ${options.timeoutMs} ms`
            : `stopped (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').at(-1) ?? ''}`;
        reject(new HearthError('unavailable', `Checking a skill.py ${why}`));
        return;
      }
      try {
        const parsed = JSON.parse(Buffer.concat(stdout).toString('utf8')) as {
          problems: SkillProblem[];
          tools: SkillToolSpec[];
          capabilities?: { value: unknown; line: number } | null;
        };
        const declared = parsed.capabilities
          ? checkCapabilities(parsed.capabilities.value, parsed.capabilities.line)
          : { capabilities: [], problems: [] };
        const problems = [...parsed.problems, ...declared.problems];
        resolve({
          ok: problems.length === 0,
          problems,
          tools: parsed.tools,
          capabilities: declared.capabilities,
        });
      } catch (error) {
        reject(
          new HearthError('unavailable', 'Checking a skill.py gave no answer', { cause: error }),
        );
      }
    });
    child.stdin.end(source, 'utf8');
  });
}
