import type { ApiResponse, PendingApproval } from '@hearth/client';
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';
import { GatewayHttpError, GatewayUnreachableError } from '../gateway-client.ts';
import { locateGateway } from '../locate-gateway.ts';
import { withLocalStore } from '../local-store.ts';
import { printResult } from '../print-result.ts';
import {
  commandSize,
  displayCommand,
  GLANCE_MAX,
  readableAtAGlance,
  sourceLines,
  untrustedSourcesOf,
} from '../../../common/text/command-display.ts';
import { showControls } from '@hearth/gateway/show-controls';
import { EXIT_USAGE } from '../usage-exit.ts';

/** An allowlist entry; `note` comes from the gateway (the local store's rows have none). */
type Entry = Omit<ApiResponse<'/approvals/allowlist'>['entries'][number], 'note'> & {
  note?: string | null;
};
type Approved = ApiResponse<'/approvals/{approval_id}/approve', 'POST'>;
type Denied = ApiResponse<'/approvals/{approval_id}/deny', 'POST'>;

type Send = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => Promise<unknown>;

/** REST first; when no gateway answers, `local()` after a note saying so (the spec's CLI rule). */
async function viaGateway<T>(
  ctx: CommandContext,
  rest: (send: Send) => Promise<T>,
  local: () => Promise<T>,
  localNote: string,
): Promise<T> {
  const client = await locateGateway(ctx);
  try {
    return await rest((method, path, body) =>
      method === 'GET' ? client.getJson(path) : client.sendJson(method, path, body),
    );
  } catch (error) {
    if (error instanceof GatewayHttpError) throw new CliError(error.detail);
    if (!(error instanceof GatewayUnreachableError)) throw error;
    ctx.deps.output.err(`note: ${error.message}; ${localNote}`);
    return local();
  }
}

/** What POST /approvals/allowlist accepts as `pattern`. */
const PATTERN = /^(?=.{1,200}$)(?:[^\s/]+|mcp:[A-Za-z][A-Za-z0-9-]{0,31}\/[^\s/]+)$/;

/**
 * Without a gateway, approvals fall back to a local instance of this process. Pending approvals
 * exist only while a gateway runs a turn that waits for one, so the local instance has none:
 * `pending` lists nothing, `approve`/`deny` find nothing (exit 1).
 */
const NO_GATEWAY_NOTE =
  'using a local instance: nothing can be pending without a running gateway (start one with hearth start).';
const localPending = (): Promise<{ pending: PendingApproval[] }> =>
  Promise.resolve({ pending: [] });

/**
 * A pending approval as the list shows it: the untrusted sources the turn read, then the whole
 * command with runs of spaces, tabs, line breaks and hidden characters made visible, and its
 * length on the next line when long or marked (issue #27).
 */
function listed(p: PendingApproval, now: number): string {
  const shown = displayCommand(p.command);
  const sources = sourceLines(untrustedSourcesOf(p));
  return (
    sources.map((line) => `${p.id.slice(0, 8)}  ${line}\n`).join('') +
    `${p.id.slice(0, 8)}  ${showControls(p.tool_name)}: ${shown.text}  ` +
    `(session ${showControls(p.session_id)}, ${Math.round(now - p.created_at)} s ago)` +
    (readableAtAGlance(shown, GLANCE_MAX) ? '' : `\n          (${commandSize(shown)})`)
  );
}

const formatEntry = (e: Entry) =>
  `#${e.id} ${e.pattern}${e.arg_pattern ? `  args /${e.arg_pattern}/` : ''}${
    e.directory ? `  in ${e.directory}` : ''
  }${e.note ? `  (${e.note})` : ''}`;

/**
 * What an approval did, in a line: with `--always`, the entry stored (the program with any
 * arguments, or only the exact command and why) or why none was.
 */
function approvedLine(result: Approved, always: boolean): string {
  const short = result.id.slice(0, 8);
  const entry = result.allowlist_entry;
  if (entry === undefined)
    return always && result.always_note !== undefined
      ? `Approved ${short} this time only; ${result.always_note}.`
      : `Approved ${short}.`;
  const where = entry.directory === null ? '' : ` in ${entry.directory}`;
  if (entry.arg_pattern === null)
    return `Approved ${short}; ${entry.pattern} now runs without asking, with any arguments${where || ' in the workspace'}.`;
  return `Approved ${short}; exactly this command${where} now runs without asking${
    entry.note ? ` (${entry.note})` : ''
  }.`;
}

/** `hearth approvals pending|approve|deny|allowlist list|add|remove`. */
export function registerApprovals(program: Command, ctx: CommandContext): void {
  const approvals = program
    .command('approvals')
    .description('the approval gate for shell and browser tools');
  const out = (text: string) => ctx.deps.output.out(text);
  const print = (options: { json?: boolean }, data: unknown, text: () => string) =>
    printResult(ctx.deps.output, options, data, text);

  approvals
    .command('pending')
    .description('commands waiting for a decision')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { pending } = await viaGateway(
        ctx,
        async (send) =>
          (await send('GET', '/api/v1/approvals/pending')) as { pending: PendingApproval[] },
        localPending,
        NO_GATEWAY_NOTE,
      );
      if (options.json) return out(JSON.stringify(pending, null, 2));
      const now = Date.now() / 1000;
      out(
        pending.length === 0
          ? 'Nothing is waiting for approval.'
          : pending.map((p) => listed(p, now)).join('\n'),
      );
    });

  const notPending = (prefix: string) =>
    new CliError(`No pending approval ${prefix} (unknown, expired or already decided).`);
  const resolveId = async (send: Send, prefix: string): Promise<string> => {
    const { pending } = (await send('GET', '/api/v1/approvals/pending')) as {
      pending: PendingApproval[];
    };
    const found = pending.filter((p) => p.id.startsWith(prefix));
    if (found.length === 1) return found[0]!.id;
    if (found.length === 0) throw notPending(prefix);
    throw new CliError(
      `"${prefix}" matches ${found.length} pending approvals; give more characters.`,
    );
  };
  /** The local instance's answer: it has nothing pending (see NO_GATEWAY_NOTE). */
  const decideLocally = (prefix: string) => (): Promise<never> =>
    Promise.reject(notPending(prefix));

  approvals
    .command('approve <id>')
    .description('approve a pending command (an id prefix is enough)')
    .option(
      '--always',
      'also allow the program from now on (only this exact command for one that can run other code)',
    )
    .option('--json', 'print JSON')
    .action(async (prefix: string, options: { always?: boolean; json?: boolean }) => {
      const result = await viaGateway(
        ctx,
        async (send) => {
          const id = await resolveId(send, prefix);
          return (await send('POST', `/api/v1/approvals/${id}/approve`, {
            always: options.always === true,
          })) as Approved;
        },
        decideLocally(prefix),
        NO_GATEWAY_NOTE,
      );
      print(options, result, () => approvedLine(result, options.always === true));
    });

  approvals
    .command('deny <id>')
    .description('deny a pending command (an id prefix is enough)')
    .option('--json', 'print JSON')
    .action(async (prefix: string, options: { json?: boolean }) => {
      const result = await viaGateway(
        ctx,
        async (send) => {
          const id = await resolveId(send, prefix);
          return (await send('POST', `/api/v1/approvals/${id}/deny`)) as Denied;
        },
        decideLocally(prefix),
        NO_GATEWAY_NOTE,
      );
      print(options, result, () => `Denied ${result.id.slice(0, 8)}.`);
    });

  const allowlist = approvals.command('allowlist').description('programs that run without asking');
  const localNote = 'using the allowlist in the database directly (it is shared with the gateway).';

  allowlist
    .command('list')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const entries = await viaGateway(
        ctx,
        async (send) =>
          ((await send('GET', '/api/v1/approvals/allowlist')) as { entries: Entry[] }).entries,
        () => withLocalStore(ctx, (db) => db.allowlist.list()),
        localNote,
      );
      out(
        options.json
          ? JSON.stringify(entries, null, 2)
          : entries.length
            ? entries.map(formatEntry).join('\n')
            : 'The allowlist is empty.',
      );
    });

  allowlist
    .command('add <pattern>')
    .description('allow a program (glob on its name), optionally only with matching arguments')
    .option('--arg-pattern <regex>', 'a regular expression the full command line must match')
    .option('--json', 'print JSON')
    .action(async (given: string, options: { argPattern?: string; json?: boolean }) => {
      // The gateway's own rule (POST /approvals/allowlist), enforced for the local store too:
      // an entry is a program name or glob, never a path.
      const pattern = given.trim();
      if (!PATTERN.test(pattern))
        throw new CliError(
          `the pattern must be a program name or glob, without spaces or slashes (1 to 200 characters): ${given}`,
          EXIT_USAGE,
        );
      if (options.argPattern !== undefined) {
        try {
          new RegExp(options.argPattern);
        } catch {
          throw new CliError(
            `--arg-pattern is not a valid regular expression: ${options.argPattern}`,
            EXIT_USAGE,
          );
        }
      }
      const entry = await viaGateway(
        ctx,
        async (send) =>
          (await send('POST', '/api/v1/approvals/allowlist', {
            pattern,
            arg_pattern: options.argPattern ?? null,
          })) as Entry,
        () =>
          withLocalStore(ctx, (db) =>
            db.allowlist.add({ pattern, arg_pattern: options.argPattern ?? null }),
          ),
        localNote,
      );
      print(options, entry, () => `Added ${formatEntry(entry)}.`);
    });

  allowlist
    .command('remove <entry-id>')
    .option('--json', 'print JSON')
    .action(async (idText: string, options: { json?: boolean }) => {
      const id = Number(idText);
      if (!Number.isInteger(id) || id <= 0)
        throw new CliError(`not an entry id: ${idText}`, EXIT_USAGE);
      await viaGateway(
        ctx,
        (send) => send('DELETE', `/api/v1/approvals/allowlist/${id}`),
        async () => {
          if (!(await withLocalStore(ctx, (db) => db.allowlist.remove(id))))
            throw new CliError(`Allowlist entry ${id} not found`);
        },
        localNote,
      );
      print(options, { id, removed: true }, () => `Removed entry #${id}.`);
    });
}
