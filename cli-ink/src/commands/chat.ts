import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { ChatError, openChatConnection, type ChatConnection } from '../chat/chat-connection.ts';
import { CliError } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';
import { locateGateway } from '../locate-gateway.ts';

/** This CLI's persistent client id (its durable memory identity, like the web client's). */
async function clientId(home: string): Promise<string> {
  const file = join(home, 'cli-client-id');
  try {
    const id = (await readFile(file, 'utf8')).trim();
    if (id) return id;
  } catch {
    // first use
  }
  const id = randomUUID();
  await writeFile(file, `${id}\n`, { mode: 0o600 });
  return id;
}

async function connect(ctx: CommandContext, session: string | undefined): Promise<ChatConnection> {
  const client = await locateGateway(ctx);
  const url = `${client.baseUrl.replace(/^http/, 'ws')}/ws?client_id=${encodeURIComponent(await clientId(ctx.deps.env.home))}`;
  try {
    return await openChatConnection(url, session);
  } catch (error) {
    throw new CliError(
      `${error instanceof Error ? error.message : String(error)}; is the gateway running? (hearth start)`,
    );
  }
}

/** `hearth chat [-m text] [--session id]`: streaming chat over the gateway's /ws. */
export function registerChat(program: Command, ctx: CommandContext): void {
  program
    .command('chat')
    .description('chat with the agent (interactive, or one message with -m)')
    .option('-m, --message <text>', 'send one message, print the reply, exit')
    .option('--session <id>', 'session id (default: this CLI’s own durable session)')
    .action(async (options: { message?: string; session?: string }) => {
      const { output } = ctx.deps;
      const connection = await connect(ctx, options.session);
      const write = (text: string) => output.write(text);
      try {
        if (options.message !== undefined) {
          await connection.send(options.message, write);
          write('\n');
          return;
        }
        const rl = createInterface({
          input: ctx.deps.input,
          output: ctx.deps.promptOutput,
          terminal: ctx.deps.isTTY,
        });
        write('Hearth chat. /help for commands, /exit or Ctrl-D to leave.\n');
        rl.setPrompt('you> ');
        // Input can end while lines are still buffered; a closed readline refuses to prompt.
        let inputClosed = false;
        rl.once('close', () => void (inputClosed = true));
        const prompt = (): void => {
          if (!inputClosed) rl.prompt();
        };
        try {
          prompt();
          // The line iterator buffers what arrives while a reply streams: with `question()`,
          // lines read before the next question (piped input, typing ahead) were dropped.
          for await (const line of rl) {
            const text = line.trim();
            if (text === '/exit' || text === '/quit') break;
            if (text !== '') {
              try {
                await connection.send(text, write);
                write('\n');
              } catch (error) {
                if (!(error instanceof ChatError)) throw error;
                output.err(`error: ${error.message}`);
                if (/closed the connection/.test(error.message)) break;
              }
            }
            prompt();
          }
        } finally {
          rl.close();
        }
      } catch (error) {
        if (error instanceof ChatError) throw new CliError(error.message);
        throw error;
      } finally {
        connection.close();
      }
    });
}
