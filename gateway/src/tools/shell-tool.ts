import { resolve } from 'node:path';
import type { Tool } from '../tools/contract.ts';
import type { ApprovalService } from '../approvals/ports.ts';
import type { ExecResult, Executor } from './executors/ports.ts';

export const DEFAULT_SHELL_TIMEOUT_S = 60;
export const MAX_SHELL_TIMEOUT_S = 600;

export interface ShellToolDeps {
  executor: () => Executor;
  approvals: () => Pick<ApprovalService, 'gate'>;
  /** The sanitised environment for children (no provider keys, no configured secret). */
  env: () => Record<string, string>;
  /** The workspace (a real, absolute path): the default directory, and what relative ones resolve against. */
  defaultWorkdir: string;
  /** The real path of a directory (symlinks resolved); the path as given when it cannot tell. */
  realDirectory?: (path: string) => Promise<string>;
}

/**
 * The directory a command runs in, as the gate judges it and the executor uses it: the
 * workspace by default, a relative one resolved against the workspace, then symlinks resolved.
 */
async function resolveWorkdir(deps: ShellToolDeps, requested: unknown): Promise<string> {
  if (typeof requested !== 'string' || requested.trim() === '') return deps.defaultWorkdir;
  const absolute = resolve(deps.defaultWorkdir, requested);
  return deps.realDirectory ? deps.realDirectory(absolute) : absolute;
}

function format(result: ExecResult): string {
  const status = result.timedOut
    ? `timed out after ${Math.round(result.durationMs / 1000)} s (killed)`
    : result.signal
      ? `killed by ${result.signal}`
      : `exit code ${String(result.exitCode)}`;
  return [
    status + (result.truncated ? ' (output truncated)' : ''),
    result.stdout ? `stdout:\n${result.stdout}` : '',
    result.stderr ? `stderr:\n${result.stderr}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** `shell`: runs a command line through the executor, behind the approval gate. */
export function shellTool(deps: ShellToolDeps): Tool {
  return {
    name: 'shell',
    description:
      "Run a /bin/sh -c command on the user's machine or sandbox; returns the output. May need the user's approval.",
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        timeout: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_SHELL_TIMEOUT_S,
          description: 'Killed after this many seconds (default 60)',
        },
        workdir: {
          type: 'string',
          description: 'Default, and base of a relative path: the workspace',
        },
      },
      required: ['command'],
    },
    source: 'builtin',
    async execute(context, args) {
      const command = typeof args.command === 'string' ? args.command.trim() : '';
      if (command === '') return 'Error: command is required.';
      const timeout = Math.min(
        MAX_SHELL_TIMEOUT_S,
        Math.max(
          1,
          Math.floor(typeof args.timeout === 'number' ? args.timeout : DEFAULT_SHELL_TIMEOUT_S),
        ),
      );
      const workdir = await resolveWorkdir(deps, args.workdir);
      const decision = await deps.approvals().gate({
        toolName: 'shell',
        command,
        arguments: { command, timeout, workdir },
        sessionId: context.sessionId,
        requester: context.requester,
        untrustedSources: context.untrustedSources?.(),
      });
      if (!decision.allowed) return decision.message;
      const result = await deps.executor().run({
        command,
        timeoutSeconds: timeout,
        workdir,
        env: deps.env(),
        signal: context.signal,
      });
      return format(result);
    },
  };
}

/**
 * Puts any tool behind the gate; `describe` turns its arguments into the command line the user
 * approves (the browser tool's "navigate https://…"). `normalise`, when given, first turns the
 * arguments into exactly what the tool will use (the URL the browser opens, not the raw string):
 * the gate judges and shows that, and the tool runs with it. When it throws, nothing is gated
 * or run and the model gets the error.
 */
export function gatedTool(
  tool: Tool,
  approvals: () => Pick<ApprovalService, 'gate'>,
  describe: (args: Record<string, unknown>) => string,
  normalise: (args: Record<string, unknown>) => Record<string, unknown> = (args) => args,
): Tool {
  return {
    ...tool,
    async execute(context, raw) {
      let args: Record<string, unknown>;
      try {
        args = normalise(raw);
      } catch (error) {
        return `Error: ${error instanceof Error ? error.message : String(error)}`;
      }
      const command = describe(args);
      const decision = await approvals().gate({
        toolName: tool.name,
        command,
        arguments: { command, timeout: 0, workdir: '' },
        sessionId: context.sessionId,
        requester: context.requester,
        untrustedSources: context.untrustedSources?.(),
      });
      if (!decision.allowed) return decision.message;
      return tool.execute(context, args);
    },
  };
}
