import type { Tool } from '../agent/tools/registry.ts';
import type { ApprovalService } from '../approvals/approval-service.ts';
import type { ExecResult, Executor } from './executors/ports.ts';

export const DEFAULT_SHELL_TIMEOUT_S = 60;
export const MAX_SHELL_TIMEOUT_S = 600;

export interface ShellToolDeps {
  executor: () => Executor;
  approvals: () => ApprovalService;
  /** The sanitised environment for children (no provider keys, no configured secret). */
  env: () => Record<string, string>;
  defaultWorkdir: string;
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
      'Run a shell command on the user’s machine (or its sandbox) and get its output. Commands may need the user’s approval.',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line, run with /bin/sh -c' },
        timeout: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_SHELL_TIMEOUT_S,
          description: 'Seconds before it is killed (default 60)',
        },
        workdir: { type: 'string', description: 'Working directory' },
      },
      required: ['command'],
      additionalProperties: false,
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
      const workdir =
        typeof args.workdir === 'string' && args.workdir !== ''
          ? args.workdir
          : deps.defaultWorkdir;
      const decision = await deps.approvals().gate({
        toolName: 'shell',
        command,
        arguments: { command, timeout, workdir },
        sessionId: context.sessionId,
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
 * approves (the browser tool's "navigate https://…").
 */
export function gatedTool(
  tool: Tool,
  approvals: () => ApprovalService,
  describe: (args: Record<string, unknown>) => string,
): Tool {
  return {
    ...tool,
    async execute(context, args) {
      const command = describe(args);
      const decision = await approvals().gate({
        toolName: tool.name,
        command,
        arguments: { command, timeout: 0, workdir: '' },
        sessionId: context.sessionId,
      });
      if (!decision.allowed) return decision.message;
      return tool.execute(context, args);
    },
  };
}
