import type { ApiBody, ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import type { LocalOrchestrator } from '@hearth/gateway/orchestrator-local';
import { showControls } from '@hearth/gateway/show-controls';
import { CliError } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';
import { withLocalStore } from '../local-store.ts';
import { viaGatewayOrLocal } from '../rest-or-local.ts';
import { EXIT_USAGE } from '../usage-exit.ts';
import { printResult } from '../print-result.ts';

/** A node as `GET /orchestrator/nodes` returns it. */
type OrchestratorNode = ApiResponse<'/orchestrator/nodes'>['nodes'][number];
type Added = ApiResponse<'/orchestrator/nodes', 'POST'>;
type Removed = ApiResponse<'/orchestrator/nodes/{name}', 'DELETE'>;
type RouteResult = ApiResponse<'/orchestrator/route', 'POST'>;
type OrchestratorStatus = ApiResponse<'/orchestrator/status'>;

/** A routed generation may take as long as a chat reply. */
const ROUTE_TIMEOUT_MS = 120_000;
const NOTE =
  'using a local instance: nodes are read and written in the database directly (shared with the gateway).';
const ROUTE_NOTE =
  'using a local instance without a router: the node is selected and a placeholder returned, nothing is generated.';

const show = showControls;
const list = (values: readonly string[]) => (values.length ? values.map(show).join(', ') : 'any');
const csv = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');

export const formatNode = (n: OrchestratorNode): string =>
  `${show(n.name)}  ${show(n.model_override)} (${show(n.provider)})  ${n.enabled ? 'enabled' : 'disabled'}  priority ${n.priority}\n` +
  `  task types: ${list(n.task_types)}; channels: ${list(n.channels)}; keywords: ${n.keywords.length ? n.keywords.map(show).join(', ') : 'none'}`;

function formatRoute(r: RouteResult): string {
  const head = `Node ${show(r.node)} via ${show(r.model)} (${show(r.provider)}), score ${r.score}${
    r.matched_keywords.length ? ` [${r.matched_keywords.map(show).join(', ')}]` : ''
  }`;
  const usage = r.usage
    ? `\n(${r.usage.input_tokens} in, ${r.usage.output_tokens} out${r.cost_usd !== null ? `, $${r.cost_usd}` : ''})`
    : '';
  return `${head}\n\n${show(r.text)}${usage}`;
}

function formatStatus(s: OrchestratorStatus): string {
  const lines = [
    `Orchestrator: ${s.healthy ? 'healthy' : 'unhealthy'}, ${s.router_available ? 'generating through the router' : 'no router (placeholders only)'}`,
    `${s.nodes_total} nodes (${s.nodes_enabled} enabled), ${s.requests_total} requests, ${s.errors_total} errors`,
    ...s.nodes.map(
      (n) =>
        `  ${show(n.name)}  ${n.enabled ? 'enabled' : 'disabled'}  ${n.requests} requests, ${n.errors} errors, ${n.input_tokens} in / ${n.output_tokens} out tokens`,
    ),
  ];
  return lines.join('\n');
}

/** The local, process-own orchestrator over this machine's database (loaded only when needed). */
async function withLocal<T>(
  ctx: CommandContext,
  work: (local: LocalOrchestrator) => Promise<T>,
): Promise<T> {
  const { localOrchestrator } = await import('@hearth/gateway/orchestrator-local');
  return withLocalStore(ctx, (db) => work(localOrchestrator(db)));
}

/** `hearth orchestrate list|add|remove|route|status`: REST first, local fallback with a note. */
export function registerOrchestrate(program: Command, ctx: CommandContext): void {
  const orchestrate = program
    .command('orchestrate')
    .description('orchestrator nodes that route tasks to models, each with its own memory');
  const out = (text: string) => ctx.deps.output.out(text);

  orchestrate
    .command('list')
    .description('registered nodes and their routing configuration')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { value: nodes } = await viaGatewayOrLocal(
        ctx,
        async (send) =>
          ((await send('GET', '/api/v1/orchestrator/nodes')) as ApiResponse<'/orchestrator/nodes'>)
            .nodes,
        () => withLocal(ctx, (local) => local.list()),
        NOTE,
      );
      if (options.json) return out(JSON.stringify(nodes, null, 2));
      out(nodes.length ? nodes.map(formatNode).join('\n') : 'No orchestrator nodes.');
    });

  orchestrate
    .command('add <name>')
    .description('register a node')
    .requiredOption('--model <id>', 'the model the node answers with (a catalog model id)')
    .option('--priority <n>', 'higher wins a tie on keyword hits', '0')
    .option('--keywords <list>', 'comma-separated words or phrases looked for in the content')
    .option('--channels <list>', 'comma-separated channels it serves (default: all)')
    .option('--task-types <list>', 'comma-separated task types it takes (default: all)')
    .option('--system-prompt <text>', 'the system prompt of its generations')
    .option('--disabled', 'register it disabled')
    .option('--json', 'print JSON')
    .action(
      async (
        name: string,
        options: {
          model: string;
          priority: string;
          keywords?: string;
          channels?: string;
          taskTypes?: string;
          systemPrompt?: string;
          disabled?: boolean;
          json?: boolean;
        },
      ) => {
        const priority = Number(options.priority);
        if (!Number.isInteger(priority))
          throw new CliError(`--priority must be an integer: ${options.priority}`, EXIT_USAGE);
        const body = {
          name,
          model_override: options.model,
          priority,
          enabled: options.disabled !== true,
          ...(options.keywords !== undefined ? { keywords: csv(options.keywords) } : {}),
          ...(options.channels !== undefined ? { channels: csv(options.channels) } : {}),
          ...(options.taskTypes !== undefined ? { task_types: csv(options.taskTypes) } : {}),
          ...(options.systemPrompt !== undefined ? { system_prompt: options.systemPrompt } : {}),
        } satisfies ApiBody<'/orchestrator/nodes', 'POST'>;
        const { value: node } = await viaGatewayOrLocal(
          ctx,
          async (send) => (await send('POST', '/api/v1/orchestrator/nodes', body)) as Added,
          () => withLocal(ctx, (local) => local.add(body)),
          NOTE,
        );
        out(options.json ? JSON.stringify(node, null, 2) : `Added ${formatNode(node)}`);
      },
    );

  orchestrate
    .command('remove <name>')
    .description('remove a node and its memory namespace')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { value } = await viaGatewayOrLocal(
        ctx,
        async (send) =>
          (await send(
            'DELETE',
            `/api/v1/orchestrator/nodes/${encodeURIComponent(name)}`,
          )) as Removed,
        () => withLocal(ctx, (local) => local.remove(name)),
        NOTE,
      );
      printResult(
        ctx.deps.output,
        options,
        { name, removed: true, memory_cleared: value.memory_cleared },
        () => `Removed ${show(name)} (${value.memory_cleared} namespace memories cleared).`,
      );
    });

  orchestrate
    .command('route [content...]')
    .description('route a task to a node; with a router it answers through its model')
    .option('--task-type <type>', 'the task type (default: any)')
    .option('--channel <name>', 'the channel (default: any)')
    .option('--json', 'print JSON')
    .action(
      async (words: string[], options: { taskType?: string; channel?: string; json?: boolean }) => {
        const content = words.join(' ');
        const body = {
          ...(options.taskType !== undefined ? { task_type: options.taskType } : {}),
          ...(options.channel !== undefined ? { channel: options.channel } : {}),
          ...(content !== '' ? { content } : {}),
        } satisfies ApiBody<'/orchestrator/route', 'POST'>;
        const { value: result } = await viaGatewayOrLocal(
          ctx,
          async (send) => (await send('POST', '/api/v1/orchestrator/route', body)) as RouteResult,
          () => withLocal(ctx, (local) => local.route(body)),
          ROUTE_NOTE,
          { timeoutMs: ROUTE_TIMEOUT_MS },
        );
        out(options.json ? JSON.stringify(result, null, 2) : formatRoute(result));
      },
    );

  orchestrate
    .command('status')
    .description('health and per-node request, error and token counters')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { value: status } = await viaGatewayOrLocal(
        ctx,
        async (send) => (await send('GET', '/api/v1/orchestrator/status')) as OrchestratorStatus,
        () => withLocal(ctx, (local) => local.status()),
        NOTE,
      );
      out(options.json ? JSON.stringify(status, null, 2) : formatStatus(status));
    });
}
