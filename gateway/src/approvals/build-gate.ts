import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AllowlistRepository } from '../db/ports.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { ScaleOut } from '../scale-out/ports.ts';
import { createApprovalService } from './approval-service.ts';
import { createInProcessApprovalBoard } from './board/in-process.ts';
import type { PendingApprovalBoard } from './board/ports.ts';
import { createCommandAnalyser } from './command-analysis/command-analyser.ts';
import { alwaysRule } from './command-analysis/always-rule.ts';
import { matchesAllowlist } from './command-analysis/match-allowlist.ts';
import { decide } from './policy.ts';
import type { ApprovalPolicy, ApprovalService, GateDecision, PendingApproval } from './ports.ts';

export interface BuildGateDeps {
  policy: ApprovalPolicy;
  allowlist: () => AllowlistRepository;
  /** The workspace's real path (allowlist entries without a directory allow only it). */
  workspace: string;
  /** What gateways share: the board lives in Redis when they share one. */
  scaleOut: Pick<ScaleOut, 'gatewayId' | 'shared' | 'refused'>;
  /** Tells the session's surfaces; false when nobody got it. */
  notify: (sessionId: string, text: string, approval: PendingApproval) => Promise<boolean>;
  /** Told when a prompted approval waiting here is decided or expires. */
  decided?: (approval: PendingApproval, decision: GateDecision) => void;
  expiryMs: number;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
  /** Every configured secret value: a call carrying one is never auto-approved. */
  secretValues?: () => readonly string[];
}

export interface Gate {
  service: ApprovalService;
  /** Which board serves right now, for /status `backends.approvals`. */
  boardKind(): string;
  close(): Promise<void>;
}

/**
 * The approval gate: the command analyser (on a worker thread, so a long command line never
 * stalls the event loop), the board pending approvals are listed and claimed on (in process, or
 * in Redis with the in-process board taking over while it is unreachable), and the service.
 */
export async function buildGate(deps: BuildGateDeps): Promise<Gate> {
  const logger = deps.logger.child({ area: 'approvals' });
  const board = await openBoard(deps, logger);
  const analyser = createCommandAnalyser({
    onFailure: (reason) => logger.warn({ reason }, 'command analysis worker failed'),
  });
  // The worker's heap is its own isolate's: shown in the metrics as worker="command-analysis".
  const unwatch = deps.metrics.processSampler.watchWorker('command-analysis', () =>
    analyser.heap(),
  );
  const service = createApprovalService({
    policy: deps.policy,
    allowlist: deps.allowlist,
    analyse: (command) => analyser.analyse(command),
    matches: (analysis, entries, requestWorkdir) =>
      matchesAllowlist(analysis, entries, {
        workdir: requestWorkdir,
        workspace: deps.workspace,
        onInvalidPattern: (rule, reason) => {
          logger.warn(
            { pattern: rule.pattern, arg_pattern: rule.arg_pattern, reason },
            'allowlist entry skipped: its arg_pattern is not a valid RE2 expression',
          );
        },
      }),
    decide,
    ...(deps.secretValues ? { secretValues: deps.secretValues } : {}),
    alwaysRule: (analysis, workdir) => alwaysRule(analysis, workdir, deps.workspace),
    notify: deps.notify,
    ...(deps.decided ? { decided: deps.decided } : {}),
    metrics: deps.metrics,
    logger,
    now: deps.now,
    randomId: randomUUID,
    expiryMs: deps.expiryMs,
    board,
    schedule: (fn, ms) => {
      const timer = setTimeout(fn, ms);
      timer.unref();
      return () => clearTimeout(timer);
    },
  });
  return {
    service,
    // Refused sharing (no cluster secret): this gateway's own board, and /status says why.
    boardKind: () =>
      deps.scaleOut.refused === undefined
        ? board.kind
        : `${board.kind} (not shared: see scale_out)`,
    async close() {
      await service.close();
      unwatch();
      await analyser.close();
      await board.close();
    },
  };
}

/** The Redis client is imported only when gateways share one (a single gateway never loads it). */
async function openBoard(deps: BuildGateDeps, logger: Logger): Promise<PendingApprovalBoard> {
  const owner = deps.scaleOut.gatewayId;
  const inProcess = createInProcessApprovalBoard({ owner, now: deps.now });
  const shared = deps.scaleOut.shared;
  if (!shared) return inProcess;
  const [{ createRedisApprovalBoard }, { createResilientApprovalBoard }] = await Promise.all([
    import('./board/redis.ts'),
    import('./board/resilient.ts'),
  ]);
  return createResilientApprovalBoard({
    primary: await createRedisApprovalBoard({
      link: shared.link,
      owner,
      presence: shared.presence,
      seal: shared.seal,
      logger,
      now: deps.now,
    }),
    fallback: inProcess,
    logger,
    now: deps.now,
  });
}
