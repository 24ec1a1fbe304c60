import {
  archiveInactiveSessions,
  pullEmbeddingModel,
  silentLogger,
  SUMMARY_PROMPT,
} from '@hearth/gateway';
import type { ApiBody, ApiResponse } from '@hearth/client';
import { type Command, InvalidArgumentError } from 'commander';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { GatewayHttpError, GatewayUnreachableError } from '../../gateway-client.ts';
import { locateGateway } from '../../locate-gateway.ts';
import { localRouter, withLocalStore } from '../../local-store.ts';
import { EXIT_USAGE } from '../../usage-exit.ts';
import { printResult } from '../../print-result.ts';

type Search = ApiResponse<'/memory/search'>;
/** A memory as the gateway answers it; the local store's entries have the same fields. */
type Entry = Search['results'][number];
type Pruned = ApiResponse<'/memory/prune', 'POST'>;
type Edited = ApiResponse<'/memory/entries/{id}', 'PATCH'>;
type SessionCleared = ApiResponse<'/memory/session/{id}', 'DELETE'>;

/** Runs `rest` against a running gateway, or `local` on the store when none answers (with a note). */
async function restOrStore<T>(
  ctx: CommandContext,
  rest: (
    send: (
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
      path: string,
      body?: unknown,
    ) => Promise<unknown>,
  ) => Promise<T>,
  local: () => Promise<T>,
): Promise<T> {
  const client = await locateGateway(ctx);
  try {
    return await rest((method, path, body) =>
      method === 'GET' ? client.getJson(path) : client.sendJson(method, path, body),
    );
  } catch (error) {
    if (error instanceof GatewayHttpError) throw new CliError(error.detail);
    if (!(error instanceof GatewayUnreachableError)) throw error;
    ctx.deps.output.err(`note: ${error.message}; working on the memory store directly.`);
    return local();
  }
}

function formatEntry(entry: Entry): string {
  const when = new Date(entry.created_at * 1000).toISOString().slice(0, 16).replace('T', ' ');
  const tags = entry.tags.length ? ` [${entry.tags.join(', ')}]` : '';
  return `#${entry.id} ${when} ${entry.session_id} (${entry.type}, importance ${entry.importance_score})${tags}\n    ${entry.content.replace(/\s+/g, ' ').slice(0, 200)}`;
}

/**
 * Prints `prompt` and reads one line of the command's input. Input that ends without an answer
 * (closed stdin, `< /dev/null`, a pipe with nothing in it) answers '' instead of waiting forever
 * (readline's question() never settles once its input has ended).
 */
async function askLine(ctx: CommandContext, prompt: string): Promise<string> {
  const rl = createInterface({
    input: ctx.deps.input,
    output: ctx.deps.promptOutput,
    terminal: ctx.deps.isTTY,
  });
  try {
    rl.setPrompt(prompt);
    rl.prompt();
    return await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
  } finally {
    rl.close();
  }
}

const number = (name: string) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new InvalidArgumentError(`${name} must be a number`);
  return parsed;
};

export function registerMemory(program: Command, ctx: CommandContext): void {
  const memory = program.command('memory').description('the long-term memory store');
  const out = (text: string) => ctx.deps.output.out(text);

  memory
    .command('search <query>')
    .description('substring search of the long-term store')
    .option('--limit <n>', 'most results', number('--limit'), 20)
    .option('--session <id>', 'one session only')
    .option('--json', 'print JSON')
    .action(async (query: string, options: { limit: number; session?: string; json?: boolean }) => {
      const results = await restOrStore(
        ctx,
        async (send) => {
          const params = new URLSearchParams({
            q: query,
            limit: String(options.limit),
            ...(options.session ? { session_id: options.session } : {}),
          });
          return ((await send('GET', `/api/v1/memory/search?${params.toString()}`)) as Search)
            .results;
        },
        () =>
          withLocalStore(ctx, (db) =>
            db.memory.search(query, { limit: options.limit, session_id: options.session }),
          ),
      );
      out(
        options.json
          ? JSON.stringify(results, null, 2)
          : results.length
            ? results.map(formatEntry).join('\n')
            : 'No memories match.',
      );
    });

  memory
    .command('prune')
    .description('delete memories older than --days and/or less important than --threshold')
    .option('--days <n>', 'older than this many days', number('--days'))
    .option('--threshold <x>', 'importance below this (0 to 1)', number('--threshold'))
    .option('--json', 'print JSON')
    .action(async ({ json, ...options }: { days?: number; threshold?: number; json?: boolean }) => {
      if (options.days === undefined && options.threshold === undefined)
        throw new CliError('give --days, --threshold or both', EXIT_USAGE);
      const removed = await restOrStore(
        ctx,
        async (send) =>
          (
            (await send(
              'POST',
              '/api/v1/memory/prune',
              options satisfies ApiBody<'/memory/prune', 'POST'>,
            )) as Pruned
          ).removed,
        () => withLocalStore(ctx, (db) => db.memory.prune({ ...options, now: Date.now() / 1000 })),
      );
      printResult(
        ctx.deps.output,
        { json },
        { removed },
        () => `Removed ${removed} ${removed === 1 ? 'memory' : 'memories'}.`,
      );
    });

  memory
    .command('edit <id>')
    .description('change a memory’s content and/or importance')
    .option('--content <text>', 'new content')
    .option('--importance <x>', 'new importance, 0 to 1', number('--importance'))
    .option('--json', 'print JSON')
    .action(
      async (
        idText: string,
        { json, ...options }: { content?: string; importance?: number; json?: boolean },
      ) => {
        const id = Number(idText);
        if (!Number.isInteger(id) || id <= 0)
          throw new CliError(`not a memory id: ${idText}`, EXIT_USAGE);
        if (options.content === undefined && options.importance === undefined)
          throw new CliError('give --content, --importance or both', EXIT_USAGE);
        const entry = await restOrStore(
          ctx,
          async (send) =>
            (await send(
              'PATCH',
              `/api/v1/memory/entries/${id}`,
              options satisfies ApiBody<'/memory/entries/{id}', 'PATCH'>,
            )) as Edited,
          () =>
            withLocalStore(ctx, async (db) => {
              const updated = await db.memory.update(id, {
                content: options.content,
                importance_score: options.importance,
              });
              if (!updated) throw new CliError(`Memory entry ${id} not found`);
              return updated;
            }),
        );
        printResult(ctx.deps.output, { json }, entry, () => formatEntry(entry));
      },
    );

  memory
    .command('clear')
    .description('delete every memory, or one session’s (asks first unless --yes)')
    .option('--session <id>', 'only this session')
    .option('--yes', 'do not ask for confirmation')
    .option('--json', 'print JSON')
    .action(async (options: { session?: string; yes?: boolean; json?: boolean }) => {
      if (!options.yes) {
        const answer = await askLine(
          ctx,
          options.session
            ? `Delete every memory of session ${options.session}? [y/N] `
            : 'Delete ALL memories? [y/N] ',
        );
        if (!/^y(es)?$/i.test(answer.trim())) {
          printResult(ctx.deps.output, options, { deleted: 0 }, () => 'Nothing deleted.');
          return;
        }
      }
      const session = options.session;
      const removed = session
        ? await restOrStore(
            ctx,
            async (send) =>
              (
                (await send(
                  'DELETE',
                  `/api/v1/memory/session/${encodeURIComponent(session)}`,
                )) as SessionCleared
              ).deleted,
            () => withLocalStore(ctx, (db) => db.memory.removeSession(session)),
          )
        : await withLocalStore(ctx, (db) => db.memory.removeAll());
      printResult(
        ctx.deps.output,
        options,
        { deleted: removed },
        () => `Deleted ${removed} ${removed === 1 ? 'memory' : 'memories'}.`,
      );
    });

  memory
    .command('archive')
    .description('condense sessions inactive for --days (default 30) into one summary each')
    .option('--days <n>', 'inactive for at least this many days', number('--days'), 30)
    .option('--json', 'print JSON')
    .action(async (options: { days: number; json?: boolean }) => {
      const result = await withLocalStore(ctx, async (db, config) => {
        const router = localRouter(config);
        return archiveInactiveSessions(
          {
            longTerm: () => db.memory,
            summarise: async (text) =>
              (
                await router.generate({
                  system: SUMMARY_PROMPT,
                  messages: [{ role: 'user', content: text }],
                  complexity: 'simple',
                })
              ).text,
            store: (entry) => db.memory.insert(entry),
            removeEntries: (ids) => db.memory.removeMany(ids),
            logger: silentLogger(),
            now: Date.now,
          },
          options.days,
        );
      });
      printResult(
        ctx.deps.output,
        options,
        result,
        () =>
          `Archived ${result.sessions} session(s): ${result.condensed} memories condensed${result.failed ? `, ${result.failed} failed (see the log)` : ''}.`,
      );
    });

  memory
    .command('models')
    .description('the local embedding model')
    .command('pull')
    .description('download the sentence-embedding model into {data_dir}/models')
    .option('--model <id>', 'model id', 'Xenova/all-MiniLM-L6-v2')
    .option('--json', 'print JSON (and no progress bar)')
    .action(async (options: { model: string; json?: boolean }) => {
      let last = -1;
      const pulled = await pullEmbeddingModel({
        modelDir: join(ctx.deps.env.home, 'models'),
        modelId: options.model,
        logger: silentLogger(),
        onProgress: (progress) => {
          if (progress.status !== 'total' || options.json) return;
          const percent = Math.floor(progress.percent);
          if (percent === last) return;
          last = percent;
          const bar = '#'.repeat(Math.floor(percent / 4)).padEnd(25, '.');
          ctx.deps.output.write(
            `\r[${bar}] ${percent}% of ${(progress.total / 1_048_576).toFixed(1)} MB`,
          );
        },
      }).catch((error: unknown) => {
        throw new CliError(
          `could not pull ${options.model}: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      if (!options.json) ctx.deps.output.write('\n');
      printResult(
        ctx.deps.output,
        options,
        pulled,
        () =>
          `Pulled ${pulled.modelId} (${pulled.dimensions} dimensions) into ${pulled.folder}. Restart the gateway to use it.`,
      );
    });
}
