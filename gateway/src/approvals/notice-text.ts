import {
  commandSize,
  displayCommand,
  GLANCE_MAX,
  readableAtAGlance,
  sourceLines,
  untrustedSourcesOf,
} from '../../../common/text/command-display.ts';
import { showControls } from '../text/show-controls.ts';
import { EXACT_SCOPE } from './command-analysis/always-rule.ts';
import type { GateRequest, PendingApproval } from './ports.ts';
import { shortId } from './short-id.ts';

/** The request's working directory; null for a tool without one (the browser). */
export const workdirOf = (request: Pick<PendingApproval, 'arguments'>): string | null =>
  request.arguments.workdir === '' ? null : request.arguments.workdir;

/**
 * The approval notice: the whole command as it will run (never cut; runs of spaces, tabs, line
 * breaks and hidden characters made visible, its length stated when it is long or marked), the
 * untrusted sources the turn read before asking, the directory it runs in, and what each reply
 * does (`alwaysScope`: what `always` would allow for this command, from the always rule).
 */
export function noticeText(
  approval: PendingApproval,
  request: Pick<GateRequest, 'requester' | 'toolName'>,
  expirySeconds: number,
  alwaysScope: string = EXACT_SCOPE,
): string {
  const short = shortId(approval.id);
  const where = workdirOf(approval);
  const what = request.requester
    ? `${showControls(request.requester)} asks to run ${request.toolName}`
    : approval.tool_name;
  const shown = displayCommand(approval.command);
  const sources = sourceLines(untrustedSourcesOf(approval));
  const head =
    sources.length === 0
      ? `Approval needed [${short}] ${what}: `
      : `Approval needed [${short}]\n${sources.join('\n')}\n` +
        `then ${request.requester ? what : `the agent asks to run ${what}`}: `;
  return (
    `${head}${shown.text}\n` +
    (readableAtAGlance(shown, GLANCE_MAX) ? '' : `(${commandSize(shown)})\n`) +
    (where === null ? '' : `in ${showControls(where)}\n`) +
    `Reply "approve ${short}" or "deny ${short}" within ${expirySeconds} s; ` +
    `"approve ${short} always" ${alwaysScope}.`
  );
}
