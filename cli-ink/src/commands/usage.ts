import type { ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import type { CommandContext } from '../deps.ts';
import { restOrLocal } from '../rest-or-local.ts';

type UsageReport = ApiResponse<'/usage'>;

/** `hearth usage [--json]`: tokens and estimated cost per model since the gateway started. */
export function registerUsage(program: Command, ctx: CommandContext): void {
  program
    .command('usage')
    .description('tokens and estimated cost per model since the gateway started')
    .option('--json', 'print the raw usage object')
    .action(async (options: { json?: boolean }) => {
      const { body } = await restOrLocal<UsageReport>(
        ctx,
        '/api/v1/usage',
        () => Promise.resolve({ models: {}, total_cost_usd: 0 }),
        'usage counters live in the gateway process and reset on restart; this process has none to show.',
      );
      const report = body as UsageReport;
      ctx.deps.output.out(options.json ? JSON.stringify(report, null, 2) : formatUsage(report));
    });
}

export function formatUsage(report: UsageReport): string {
  const rows = Object.entries(report.models);
  if (rows.length === 0) return 'No generations yet.';
  const width = Math.max(5, ...rows.map(([model]) => model.length));
  // Provider-run web searches ([models] web_search_enabled): a column only when there were any.
  const searches = rows.some(([, usage]) => (usage.web_searches ?? 0) > 0);
  const searchCell = (value: string) => (searches ? `  ${value.padStart(8)}` : '');
  const lines = [
    `${'model'.padEnd(width)}  ${'input'.padStart(10)}  ${'output'.padStart(10)}${searchCell('searches')}  ${'cost (USD)'.padStart(12)}`,
  ];
  for (const [model, usage] of rows) {
    const cost = usage.cost_usd === null ? 'unpriced' : usage.cost_usd.toFixed(6);
    lines.push(
      `${model.padEnd(width)}  ${String(usage.input_tokens).padStart(10)}  ${String(usage.output_tokens).padStart(10)}${searchCell(String(usage.web_searches ?? 0))}  ${cost.padStart(12)}`,
    );
  }
  lines.push(`total (priced models only): $${report.total_cost_usd.toFixed(6)}`);
  return lines.join('\n');
}
