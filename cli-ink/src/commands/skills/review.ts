import type { ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import { showControls as show } from '@hearth/gateway/show-controls';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { printResult } from '../../print-result.ts';
import { formatSkill } from './format.ts';
import { withGateway, type Send } from './rest.ts';

type Pending = ApiResponse<'/skills/review/pending'>;
type Proposal = Pending['pending'][number];
type Shown = ApiResponse<'/skills/review/{id}'>;
type Approved = ApiResponse<'/skills/review/{id}/approve', 'POST'>;
type Rejected = ApiResponse<'/skills/review/{id}/reject', 'POST'>;

const formatProposal = (p: Proposal) =>
  `${p.id.slice(0, 8)}  ${show(p.name)}  tools: ${p.tools.map(show).join(', ') || '(none)'}  (session ${show(p.session_id)})`;

/** A full id from a prefix of a pending proposal's (the list shows 8 characters). */
async function resolveId(send: Send, prefix: string): Promise<string> {
  const { pending } = (await send('GET', '/skills/review/pending')) as Pending;
  const found = pending.filter((p) => p.id.startsWith(prefix));
  if (found.length === 1) return found[0]!.id;
  if (found.length === 0) throw new CliError(`No pending skill proposal ${prefix}.`);
  throw new CliError(`"${prefix}" matches ${found.length} proposals; give more characters.`);
}

/** `hearth skills review pending|show|approve|reject`. */
export function registerReview(skills: Command, ctx: CommandContext): void {
  const review = skills.command('review').description('skills the agent proposed (write_skill)');
  const out = (text: string) => ctx.deps.output.out(text);

  review
    .command('pending')
    .description('proposals waiting for a decision')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { pending } = await withGateway(
        ctx,
        async (send) => (await send('GET', '/skills/review/pending')) as Pending,
      );
      if (options.json) return out(JSON.stringify(pending, null, 2));
      out(
        pending.length === 0
          ? 'No skill proposals are waiting.'
          : pending.map(formatProposal).join('\n'),
      );
    });

  review
    .command('show <id>')
    .description('one proposal with its code (an id prefix is enough)')
    .option('--json', 'print JSON')
    .action(async (prefix: string, options: { json?: boolean }) => {
      const proposal = await withGateway(
        ctx,
        async (send) =>
          (await send('GET', `/skills/review/${await resolveId(send, prefix)}`)) as Shown,
      );
      if (options.json) return out(JSON.stringify(proposal, null, 2));
      out(
        `${formatProposal(proposal)}${proposal.description ? `\n${show(proposal.description)}` : ''}\n\n${proposal.code
          .split('\n')
          .map(show)
          .join('\n')}`,
      );
    });

  review
    .command('approve <id>')
    .description('approve: the skill is written and loaded (an id prefix is enough)')
    .option('--json', 'print JSON')
    .action(async (prefix: string, options: { json?: boolean }) => {
      const { skill } = await withGateway(
        ctx,
        async (send) =>
          (await send(
            'POST',
            `/skills/review/${await resolveId(send, prefix)}/approve`,
          )) as Approved,
      );
      printResult(ctx.deps.output, options, { skill }, () => `Approved: ${formatSkill(skill)}`);
    });

  review
    .command('reject <id>')
    .description('reject: the skill is never written (an id prefix is enough)')
    .option('--json', 'print JSON')
    .action(async (prefix: string, options: { json?: boolean }) => {
      const { name } = await withGateway(
        ctx,
        async (send) =>
          (await send(
            'POST',
            `/skills/review/${await resolveId(send, prefix)}/reject`,
          )) as Rejected,
      );
      printResult(
        ctx.deps.output,
        options,
        { name, rejected: true },
        () => `Rejected the proposal for ${show(name)}; nothing was written.`,
      );
    });
}
