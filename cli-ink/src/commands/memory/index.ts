import {
  archiveInactiveSessions,
  createTransformersEmbedder,
  DEFAULT_EMBEDDING_MODEL_ID,
  inspectModelFolder,
  pullEmbeddingModel,
  searchStoredEmbeddings,
  silentLogger,
  SUMMARY_PROMPT,
  type SemanticMatch,
} from '@hearth/gateway';
import type { ApiBody, ApiResponse } from '@hearth/client';
import { type Command, InvalidArgumentError } from 'commander';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CliError, errorMessage } from '../../cli-error.ts';
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
type Semantic = ApiResponse<'/memory/semantic'>;
type Cleared = ApiResponse<'/memory', 'DELETE'>;

/** The start of every "no embedding model" answer, the gateway's and the local one alike. */
const NO_MODEL = 'semantic search needs the local embedding model, which is not available';

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

function formatEntry(entry: Entry & { similarity?: number }): string {
  const when = new Date(entry.created_at * 1000).toISOString().slice(0, 16).replace('T', ' ');
  const tags = entry.tags.length ? ` [${entry.tags.join(', ')}]` : '';
  const similarity =
    entry.similarity === undefined ? '' : `, similarity ${entry.similarity.toFixed(2)}`;
  return `#${entry.id} ${when} ${entry.session_id} (${entry.type}, importance ${entry.importance_score}${similarity})${tags}\n    ${entry.content.replace(/\s+/g, ' ').slice(0, 200)}`;
}

/**
 * Semantic search without a gateway: the local embedding model (when it is on disk) on the
 * embeddings stored with the rows. Says exactly what is missing otherwise.
 */
async function searchLocally(
  ctx: CommandContext,
  query: string,
  options: { limit: number; session?: string },
): Promise<SemanticMatch[]> {
  const modelDir = join(ctx.deps.env.home, 'models');
  const check = await inspectModelFolder(modelDir, DEFAULT_EMBEDDING_MODEL_ID);
  if (!check.ok) throw new CliError(`${NO_MODEL}: ${check.detail}`);
  const embedder = createTransformersEmbedder({ modelDir, logger: silentLogger() });
  try {
    const found = await withLocalStore(ctx, (db) =>
      searchStoredEmbeddings({ longTerm: db.memory, embedder }, query, {
        limit: options.limit,
        session_id: options.session,
      }),
    ).catch((error: unknown) => {
      if (embedder.state === 'unavailable')
        throw new CliError(`${NO_MODEL}: ${embedder.detail ?? errorMessage(error)}`);
      throw error;
    });
    if (found.other_model > 0)
      ctx.deps.output.err(
        `note: ${found.other_model} ${found.other_model === 1 ? 'memory has' : 'memories have'} an embedding of another model and ${found.other_model === 1 ? 'was' : 'were'} not compared.`,
      );
    return found.results;
  } finally {
    await embedder.close();
  }
}

/** Every tier of the memory a gateway would use, cleared here only when none lives outside it. */
async function clearLocally(ctx: CommandContext): Promise<Cleared> {
  return withLocalStore(ctx, async (db, config) => {
    const outside = [
      ...(config.memory.cache_url ? [`the short-term cache at ${config.memory.cache_url}`] : []),
      ...(config.memory.vector_store_url
        ? [`the vector store at ${config.memory.vector_store_url}`]
        : []),
    ];
    if (outside.length > 0)
      throw new CliError(
        `nothing was deleted: ${outside.join(' and ')} ${outside.length === 1 ? 'is' : 'are'} emptied by the gateway, and none answers; start it (hearth start) and run this again`,
      );
    // Without a gateway the in-process tiers do not exist: the store is all there is.
    const removed = await db.memory.removeAll();
    return { deleted: removed, long_term: removed, short_term: 0 };
  });
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
  const memory = program
    .command('memory')
    .description('the memory: search, prune, edit, clear, archive, the embedding model');
  const out = (text: string) => ctx.deps.output.out(text);

  memory
    .command('search <query>')
    .description('substring search of the long-term store; --semantic searches by meaning')
    .option('--limit <n>', 'most results', number('--limit'), 20)
    .option('--session <id>', 'one session only')
    .option(
      '--semantic',
      'by meaning, with the local embedding model (hearth memory models pull fetches it)',
    )
    .option('--json', 'print JSON')
    .action(
      async (
        query: string,
        options: { limit: number; session?: string; semantic?: boolean; json?: boolean },
      ) => {
        const params = new URLSearchParams({
          q: query,
          limit: String(options.limit),
          ...(options.session ? { session_id: options.session } : {}),
        });
        const results: (Entry & { similarity?: number })[] = options.semantic
          ? await restOrStore(
              ctx,
              async (send) =>
                ((await send('GET', `/api/v1/memory/semantic?${params.toString()}`)) as Semantic)
                  .results,
              () => searchLocally(ctx, query, options),
            )
          : await restOrStore(
              ctx,
              async (send) =>
                ((await send('GET', `/api/v1/memory/search?${params.toString()}`)) as Search)
                  .results,
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
              : options.semantic
                ? 'No memories are close in meaning.'
                : 'No memories match.',
        );
      },
    );

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
      const memories = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;
      if (session) {
        const removed = await restOrStore(
          ctx,
          async (send) =>
            (
              (await send(
                'DELETE',
                `/api/v1/memory/session/${encodeURIComponent(session)}`,
              )) as SessionCleared
            ).deleted,
          () => withLocalStore(ctx, (db) => db.memory.removeSession(session)),
        );
        printResult(
          ctx.deps.output,
          options,
          { deleted: removed },
          () => `Deleted ${memories(removed)}.`,
        );
        return;
      }
      // Every tier of the running gateway (its in-process cache and vectors too), over REST.
      const cleared = await restOrStore(
        ctx,
        async (send) => (await send('DELETE', '/api/v1/memory?confirm=all')) as Cleared,
        () => clearLocally(ctx),
      );
      printResult(ctx.deps.output, options, cleared, () =>
        cleared.short_term > 0
          ? `Deleted ${memories(cleared.deleted)}: ${cleared.long_term} long-term (with their vectors), ${cleared.short_term} short-term.`
          : `Deleted ${memories(cleared.deleted)}.`,
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
