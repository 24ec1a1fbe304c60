import { createInterface } from 'node:readline';
import type { ApiBody } from '@hearth/client';
import type { Command } from 'commander';
import {
  ChatError,
  openChatConnection,
  type ApprovalNotice,
  type ChatConnection,
  type ChatSource,
} from '../chat/chat-connection.ts';
import { CliError } from '../cli-error.ts';
import { clientId } from '../client-id.ts';
import type { CommandContext } from '../deps.ts';
import type { GatewayClient } from '../gateway-client.ts';
import { locateGateway } from '../locate-gateway.ts';
import {
  commandSize,
  displayCommand,
  GLANCE_MAX,
  readableAtAGlance,
  sourceLines,
} from '../../../common/text/command-display.ts';
import { showControls } from '@hearth/gateway/show-controls';

async function connect(
  ctx: CommandContext,
  session: string | undefined,
): Promise<{ connection: ChatConnection; client: GatewayClient }> {
  const client = await locateGateway(ctx);
  const url = `${client.baseUrl.replace(/^http/, 'ws')}/ws?client_id=${encodeURIComponent(await clientId(ctx.deps.env.home))}`;
  try {
    const protocols = await client.socketProtocols();
    return { connection: await openChatConnection(url, session, undefined, protocols), client };
  } catch (error) {
    throw new CliError(
      `${error instanceof Error ? error.message : String(error)}; is the gateway running? (hearth start)`,
    );
  }
}

/** `approve <id> [always]` / `deny <id>`, as the approval notices suggest. */
const SHORT_ID_LENGTH = 8;
const DECISION = /^(approve|deny)\s+([0-9a-f-]{1,36})(\s+always)?$/i;

/**
 * An approval request as the approver reads it, built here from the frame's exact `command`:
 * the untrusted sources the turn read first, then the whole command with runs of spaces, tabs,
 * line breaks and control or bidi characters made visible (its length stated when long or
 * marked), so what is read is what would run; the gateway's instruction line (its last)
 * follows, shown the same way.
 */
function formatNotice(notice: ApprovalNotice): string {
  const instruction = notice.text.slice(notice.text.lastIndexOf('\n') + 1);
  const shown = displayCommand(notice.command);
  const sources = sourceLines(notice.untrusted_sources);
  const what = `${showControls(notice.tool_name)}: ${shown.text}`;
  return [
    `Approval needed [${showControls(notice.short_id)}]${sources.length > 0 ? '' : ` ${what}`}`,
    ...(sources.length > 0 ? [...sources, `then the agent asks to run ${what}`] : []),
    ...(readableAtAGlance(shown, GLANCE_MAX) ? [] : [`(${commandSize(shown)})`]),
    ...(notice.text.includes('\n') ? [showControls(instruction)] : []),
  ].join('\n');
}

/**
 * Reply text as the terminal should show it: line breaks and tabs as they are, every other
 * control shown as an escape, so a reply cannot drive the terminal (an OSC 8 link hiding its
 * address, an inline-image or clipboard sequence, a repaint). Per character, so a sequence split
 * across deltas is caught too.
 */
const replyText = (text: string): string => text.replace(/[^\n\t]+/g, showControls);

function formatSources(sources: readonly ChatSource[]): string {
  if (sources.length === 0) return '';
  const lines = sources.map(
    (source, index) =>
      `  [${index + 1}] ${source.title ? `${replyText(source.title)} — ` : ''}${replyText(source.url)}`,
  );
  return `Sources:\n${lines.join('\n')}\n`;
}

/** `hearth chat [-m text] [--session id]`: streaming chat over the gateway's /ws. */
export function registerChat(program: Command, ctx: CommandContext): void {
  program
    .command('chat')
    .description('chat with the agent (interactive, or one message with -m)')
    .option('-m, --message <text>', 'send one message, print the reply, exit')
    .option('--session <id>', 'session id (default: this CLI’s own durable session)')
    .option('--json', 'with -m: print {reply, sources} once the reply is complete')
    .action(async (options: { message?: string; session?: string; json?: boolean }) => {
      const { output } = ctx.deps;
      if (options.json && options.message === undefined)
        throw new CliError('--json needs -m <text> (the interactive chat has no JSON form)', 2);
      const { connection, client } = await connect(ctx, options.session);
      const write = (text: string) => output.write(text);
      try {
        if (options.message !== undefined) {
          const reply = await connection.send(
            options.message,
            options.json ? () => undefined : (delta) => write(replyText(delta)),
            (notice) =>
              output.err(
                `${formatNotice(notice)}\n(decide from another terminal: hearth approvals approve|deny ${showControls(notice.short_id)})`,
              ),
          );
          if (options.json)
            write(`${JSON.stringify({ reply: reply.text, sources: reply.sources })}\n`);
          else write(`\n${formatSources(reply.sources)}`);
          return;
        }
        // Before the first message fails: say so when no model can answer, and what to do.
        const note = await modelReadyNote(client);
        if (note !== undefined) output.err(note);
        await interactive(ctx, connection, write);
      } catch (error) {
        if (error instanceof ChatError) throw new CliError(error.message);
        throw error;
      } finally {
        connection.close();
      }
    });
}

/**
 * The interactive loop. Lines are sent one turn at a time, in order (lines typed or piped
 * ahead wait their turn); while a turn waits on an approval, `approve|deny <id-prefix>` is
 * decided at once over REST instead of queueing behind the turn it would unblock.
 */
async function interactive(
  ctx: CommandContext,
  connection: ChatConnection,
  write: (text: string) => void,
): Promise<void> {
  const { output } = ctx.deps;
  const rl = createInterface({
    input: ctx.deps.input,
    output: ctx.deps.promptOutput,
    terminal: ctx.deps.isTTY,
  });
  write('Hearth chat. /help for commands, /exit or Ctrl-D to leave.\n');
  rl.setPrompt('you> ');
  const queue: string[] = [];
  /** Approval requests of the turn in flight, by id. */
  const waiting = new Map<string, ApprovalNotice>();
  let busy = false;
  let inputClosed = false;
  let stopped = false;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const prompt = (): void => {
    if (!inputClosed && !stopped) rl.prompt();
  };
  const settleIfDone = () => {
    if (!busy && (stopped || (inputClosed && queue.length === 0))) finish();
  };

  async function decide(verb: string, prefix: string, always: boolean): Promise<void> {
    // As in a chat reply to the gateway: the whole short id the notice showed, never less.
    if (prefix.length < SHORT_ID_LENGTH) {
      output.err(`error: type the full ${SHORT_ID_LENGTH}-character id the notice shows`);
      return;
    }
    const matches = [...waiting.values()].filter((notice) => notice.id.startsWith(prefix));
    if (matches.length !== 1) {
      output.err(
        matches.length === 0
          ? `error: no pending approval ${prefix} in this turn`
          : `error: "${prefix}" matches ${matches.length} pending approvals; type more of the id`,
      );
      return;
    }
    const notice = matches[0]!;
    try {
      const client = await locateGateway(ctx);
      await client.sendJson(
        'POST',
        `/api/v1/approvals/${notice.id}/${verb === 'approve' ? 'approve' : 'deny'}`,
        verb === 'approve'
          ? ({ always } satisfies ApiBody<'/approvals/{approval_id}/approve', 'POST'>)
          : undefined,
      );
      waiting.delete(notice.id);
      write(`${verb === 'approve' ? 'Approved' : 'Denied'} ${notice.short_id}.\n`);
    } catch (error) {
      output.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async function pump(): Promise<void> {
    if (busy) return;
    busy = true;
    while (queue.length > 0 && !stopped) {
      const text = queue.shift()!;
      if (text === '/exit' || text === '/quit') {
        stopped = true;
        break;
      }
      try {
        const reply = await connection.send(
          text,
          (delta) => write(replyText(delta)),
          (notice) => {
            waiting.set(notice.id, notice);
            write(`\n${formatNotice(notice)}\n`);
          },
        );
        write(`\n${formatSources(reply.sources)}`);
      } catch (error) {
        if (!(error instanceof ChatError)) throw error;
        output.err(`error: ${error.message}`);
        if (/closed the connection/.test(error.message)) stopped = true;
      } finally {
        waiting.clear();
      }
      prompt();
    }
    busy = false;
    settleIfDone();
  }

  const failures: unknown[] = [];
  rl.on('line', (line) => {
    const text = line.trim();
    if (text === '' || stopped) return void (busy ? undefined : prompt());
    const decision = busy && waiting.size > 0 ? DECISION.exec(text) : null;
    if (decision) {
      void decide(
        (decision[1] ?? '').toLowerCase(),
        (decision[2] ?? '').toLowerCase(),
        decision[3] !== undefined,
      );
      return;
    }
    queue.push(text);
    pump().catch((error: unknown) => {
      failures.push(error);
      stopped = true;
      finish();
    });
  });
  rl.once('close', () => {
    inputClosed = true;
    settleIfDone();
  });
  try {
    prompt();
    await finished;
    if (failures.length > 0) throw failures[0];
  } finally {
    rl.close();
  }
}

/** `note: no model can answer yet: …` from GET /status `model_ready`; undefined when one can. */
async function modelReadyNote(client: GatewayClient): Promise<string | undefined> {
  try {
    const status = (await client.getJson('/api/v1/status')) as {
      model_ready?: { ok?: unknown; detail?: unknown; fix?: unknown };
    } | null;
    const ready = status?.model_ready;
    if (ready === undefined || ready.ok !== false) return undefined;
    return `note: no model can answer yet: ${String(ready.detail)}. ${String(ready.fix)}`;
  } catch {
    return undefined; // an older gateway, or a status error: the chat says what fails
  }
}
