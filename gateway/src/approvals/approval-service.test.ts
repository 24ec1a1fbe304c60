import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tool, ToolContext } from '../tools/ports.ts';
import { openSqliteDatabase } from '../db/sqlite/open-sqlite.ts';
import type { AllowlistEntry, AllowlistRepository, Database } from '../db/ports.ts';
import { HearthError } from '../errors.ts';
import { createHostStats } from '../observability/host-stats.ts';
import { silentLogger } from '../observability/logger.ts';
import { createMetrics, metricsSnapshot, type Metrics } from '../observability/metrics.ts';
import type { ExecRequest, ExecResult, Executor } from '../tools/executors/ports.ts';
import { gatedTool, shellTool } from '../tools/shell-tool.ts';
import {
  APPROVAL_EXPIRY_MS,
  createApprovalService,
  DENIED_TEXT,
  type ApprovalService,
  type GateDecision,
  type GateRequest,
  type PendingApproval,
} from './approval-service.ts';
import { analyseCommand } from './command-analysis/analyse-command.ts';
import { alwaysRule } from './command-analysis/always-rule.ts';
import { matchesAllowlist } from './command-analysis/match-allowlist.ts';
import { decide } from './policy.ts';
import type { ApprovalPolicy, PolicyOutcome } from './ports.ts';

/** 2025-06-15T15:06:40.789Z: created_at must be the whole epoch second 1750000000. */
const NOW_MS = 1_750_000_000_789;
const NOW_S = 1_750_000_000;

const ID_A = 'aaaa1111-0000-4000-8000-000000000001';
const ID_B = 'abcd1111-0000-4000-8000-000000000002';
const ID_C = 'abcd2222-0000-4000-8000-000000000003';

/** A scheduler the test drives: nothing fires until the test says time has passed. */
function manualScheduler() {
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  return {
    schedule: (fn: () => void, ms: number): (() => void) => {
      const timer = { fn, ms, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    /** Delays of the timers still armed. */
    armed: (): number[] => timers.filter((t) => !t.cancelled).map((t) => t.ms),
    /** Time passes beyond every armed timer: each fires once. */
    elapse: (): void => {
      for (const timer of timers.splice(0)) if (!timer.cancelled) timer.fn();
    },
  };
}

interface Notice {
  sessionId: string;
  text: string;
  approval: PendingApproval;
}

/** Lets queued promise callbacks and one macrotask turn run. */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Bed {
  service: ApprovalService;
  policy: ApprovalPolicy;
  db: Database;
  metrics: Metrics;
  clock: ReturnType<typeof manualScheduler>;
  notices: Notice[];
  /** What the next notifications report: delivered, nobody listening, or a failure. */
  notifyResult: { value: 'sent' | 'nobody' | 'throws' };
  analysed: string[];
  /**
   * Starts a gate call and resolves once it is pending (or decided without a prompt), with the
   * decision the waiting tool call will get.
   */
  gate(
    request: Partial<GateRequest> & { command: string },
  ): Promise<{ decision: Promise<GateDecision> }>;
  /** A gate call decided without a prompt (fails the test if it would wait). */
  decideNow(request: Partial<GateRequest> & { command: string }): Promise<GateDecision>;
  decisions(): Promise<Record<string, number>>;
  notifications(): Promise<Record<string, number>>;
}

async function createBed(
  options: {
    policy?: Partial<ApprovalPolicy>;
    ids?: string[];
    expiryMs?: number;
    maxWaiting?: number;
    allowlist?: (db: Database) => AllowlistRepository;
  } = {},
): Promise<Bed> {
  const db = await openSqliteDatabase(':memory:');
  const metrics = createMetrics(createHostStats('/'));
  const clock = manualScheduler();
  const notices: Notice[] = [];
  const notifyResult: Bed['notifyResult'] = { value: 'sent' };
  const analysed: string[] = [];
  const ids = [...(options.ids ?? [ID_A, ID_B, ID_C])];
  const policy: ApprovalPolicy = {
    security: 'allowlist',
    ask: 'on-miss',
    requireShellApproval: true,
    ...options.policy,
  };
  const allowlist = options.allowlist?.(db) ?? db.allowlist;
  const service = createApprovalService({
    policy,
    allowlist: () => allowlist,
    analyse: (command) => {
      analysed.push(command);
      return Promise.resolve(analyseCommand(command));
    },
    matches: (analysis, entries, workdir) =>
      matchesAllowlist(analysis, entries, { workdir, workspace: '/work' }),
    decide,
    alwaysRule: (analysis, workdir) => alwaysRule(analysis, workdir, '/work'),
    notify: (sessionId, text, approval) => {
      notices.push({ sessionId, text, approval });
      if (notifyResult.value === 'throws') return Promise.reject(new Error('channel down'));
      return Promise.resolve(notifyResult.value === 'sent');
    },
    metrics,
    logger: silentLogger(),
    now: () => NOW_MS,
    randomId: () => {
      const id = ids.shift();
      if (id === undefined) throw new Error('the test ran out of approval ids');
      return id;
    },
    schedule: clock.schedule,
    expiryMs: options.expiryMs,
    maxWaiting: options.maxWaiting,
  });
  const values = async (name: string) =>
    (await metricsSnapshot(metrics.registry))[name]?.values ?? {};
  const bed: Bed = {
    service,
    policy,
    db,
    metrics,
    clock,
    notices,
    notifyResult,
    analysed,
    async gate(request) {
      const before = (await service.pending()).length;
      let settled = false;
      const decision = service
        .gate({
          toolName: 'shell',
          sessionId: 'ada',
          arguments: { command: request.command, timeout: 60, workdir: '/work' },
          ...request,
        })
        .finally(() => {
          settled = true;
        });
      for (let i = 0; i < 50 && !settled && (await service.pending()).length === before; i += 1) {
        await tick();
      }
      return { decision };
    },
    async decideNow(request) {
      const { decision } = await bed.gate(request);
      expect(await isSettled(decision)).toBe(true);
      return decision;
    },
    decisions: () => values('approval_decisions_total'),
    notifications: () => values('approval_notifications_total'),
  };
  return bed;
}

/** Whether a promise has settled, without waiting for it. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await tick();
  return settled;
}

async function expectNotFound(work: () => Promise<unknown>): Promise<void> {
  const error: unknown = await work().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HearthError);
  expect((error as HearthError).status).toBe(404);
  expect((error as HearthError).message).toMatch(
    /not found \(unknown, expired or already decided\)/,
  );
}

describe('approval gate: the spec policy table through gate()', () => {
  let bed: Bed;
  afterEach(async () => {
    await bed.service.close();
    await bed.db.close();
  });

  type Row = [ApprovalPolicy['security'], ApprovalPolicy['ask'], boolean, PolicyOutcome];
  const ASKS: ApprovalPolicy['ask'][] = ['off', 'on-miss', 'always'];
  const TABLE: Row[] = [
    ...ASKS.flatMap((ask): Row[] => [
      ['deny', ask, true, 'denied_outright'],
      ['deny', ask, false, 'denied_outright'],
      ['full', ask, true, 'auto_approved'],
      ['full', ask, false, 'auto_approved'],
    ]),
    ['allowlist', 'on-miss', true, 'auto_approved'],
    ['allowlist', 'on-miss', false, 'prompted'],
    ['allowlist', 'off', true, 'auto_approved'],
    ['allowlist', 'off', false, 'denied_silently'],
    ['allowlist', 'always', true, 'prompted'],
    ['allowlist', 'always', false, 'prompted'],
  ];
  /** The metric label each outcome is counted under (the spec names three). */
  const LABEL: Record<string, string> = {
    auto_approved: 'auto_approved',
    prompted: 'prompted',
    denied_outright: 'denied_outright',
    denied_silently: 'denied_outright',
  };

  it.each(TABLE)(
    'security=%s ask=%s allowlisted=%s → %s',
    async (security, ask, allowlisted, outcome) => {
      bed = await createBed({ policy: { security, ask } });
      await bed.db.allowlist.add({ pattern: 'ls' });
      // `ls -la` matches the entry; `rm -rf build` matches nothing.
      const command = allowlisted ? 'ls -la' : 'rm -rf build';
      const { decision } = await bed.gate({ command });

      if (outcome === 'prompted') {
        expect(await isSettled(decision)).toBe(false);
        expect((await bed.service.pending()).map((p) => p.command)).toEqual([command]);
        expect(bed.notices).toHaveLength(1);
        await bed.service.deny(ID_A);
        expect(await decision).toEqual({ allowed: false, outcome: 'denied', message: DENIED_TEXT });
      } else if (outcome === 'auto_approved') {
        expect(await decision).toEqual({ allowed: true, outcome: 'auto_approved' });
      } else {
        expect(await decision).toEqual({ allowed: false, outcome, message: DENIED_TEXT });
      }
      if (outcome !== 'prompted') {
        expect(await bed.service.pending()).toEqual([]);
        expect(bed.notices).toEqual([]);
        expect(await bed.notifications()).toEqual({});
      }
      expect(await bed.decisions()).toEqual({ [`decision=${LABEL[outcome]}`]: 1 });
    },
  );

  it.each(TABLE)(
    'security=%s ask=%s allowlisted=%s with require_shell_approval false → runs, no prompt',
    async (security, ask, allowlisted) => {
      bed = await createBed({ policy: { security, ask, requireShellApproval: false } });
      await bed.db.allowlist.add({ pattern: 'ls' });
      const decision = await bed.decideNow({ command: allowlisted ? 'ls -la' : 'rm -rf build' });
      expect(decision).toEqual({ allowed: true, outcome: 'not_gated' });
      expect(bed.analysed).toEqual([]);
      expect(await bed.service.pending()).toEqual([]);
      expect(bed.notices).toEqual([]);
      expect(await bed.decisions()).toEqual({});
    },
  );

  it('reads the policy live: a change between two commands applies to the second', async () => {
    bed = await createBed({ policy: { security: 'deny' } });
    expect((await bed.decideNow({ command: 'date' })).allowed).toBe(false);
    bed.policy.security = 'full';
    expect(await bed.decideNow({ command: 'date' })).toEqual({
      allowed: true,
      outcome: 'auto_approved',
    });
    bed.policy.requireShellApproval = false;
    bed.policy.security = 'deny';
    expect(await bed.decideNow({ command: 'date' })).toEqual({
      allowed: true,
      outcome: 'not_gated',
    });
    expect(await bed.decisions()).toEqual({
      'decision=denied_outright': 1,
      'decision=auto_approved': 1,
    });
  });

  it('never auto-approves an opaque line, even when its visible program is allowlisted', async () => {
    bed = await createBed({ policy: { ask: 'off' } });
    await bed.db.allowlist.add({ pattern: 'ls' });
    expect(await bed.decideNow({ command: 'ls $(rm -rf ~)' })).toEqual({
      allowed: false,
      outcome: 'denied_silently',
      message: DENIED_TEXT,
    });
    expect(await bed.decideNow({ command: 'ls && rm x' })).toMatchObject({ allowed: false });
    expect(await bed.decideNow({ command: "sh -c 'ls -la'" })).toEqual({
      allowed: true,
      outcome: 'auto_approved',
    });
  });
});

describe('approval gate: a cap on calls waiting in one process', () => {
  it('denies a further prompt at once past the cap, counted; a decision frees a place', async () => {
    const bed = await createBed({ maxWaiting: 2 });
    const first = await bed.gate({ command: 'rm -rf /tmp/a' });
    await bed.gate({ command: 'rm -rf /tmp/b' });
    const third = await bed.decideNow({ command: 'rm -rf /tmp/c' });
    expect(third).toMatchObject({ allowed: false, outcome: 'too_many_pending' });
    expect(await bed.service.pending()).toHaveLength(2);
    expect(bed.notices).toHaveLength(2);
    expect(await bed.decisions()).toEqual({
      'decision=prompted': 2,
      'decision=denied_pending_cap': 1,
    });
    await bed.service.deny(ID_A);
    await expect(first.decision).resolves.toMatchObject({ allowed: false, outcome: 'denied' });
    const fourth = await bed.gate({ command: 'rm -rf /tmp/d' });
    expect(await isSettled(fourth.decision)).toBe(false);
    expect(await bed.service.pending()).toHaveLength(2);
    await bed.db.close();
  });
});

describe('approval gate: the pending state machine (manual clock)', () => {
  let bed: Bed;
  beforeEach(async () => {
    bed = await createBed();
  });
  afterEach(async () => {
    await bed.service.close();
    await bed.db.close();
  });

  it('records a pending approval with exactly the spec fields', async () => {
    const { decision } = await bed.gate({
      command: 'rm -rf build',
      arguments: { command: 'rm -rf build', timeout: 30, workdir: '/srv/app' },
      sessionId: 'telegram-42',
    });
    expect(await bed.service.pending()).toEqual([
      {
        id: ID_A,
        tool_name: 'shell',
        command: 'rm -rf build',
        arguments: { command: 'rm -rf build', timeout: 30, workdir: '/srv/app' },
        session_id: 'telegram-42',
        created_at: NOW_S,
      },
    ]);
    expect(Object.keys((await bed.service.pending())[0]!).sort()).toEqual([
      'arguments',
      'command',
      'created_at',
      'id',
      'session_id',
      'tool_name',
    ]);
    expect(bed.clock.armed()).toEqual([APPROVAL_EXPIRY_MS]);
    expect(APPROVAL_EXPIRY_MS).toBe(120_000);
    await bed.service.deny(ID_A);
    await decision;
  });

  it('approve: the waiting gate continues allowed, the expiry is disarmed, the id is gone', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build' });
    expect(await isSettled(decision)).toBe(false);

    expect(await bed.service.approve(ID_A)).toEqual({
      approved: true,
      id: ID_A,
      always_allowed: false,
    });
    expect(await decision).toEqual({ allowed: true, outcome: 'approved' });
    expect(await bed.service.pending()).toEqual([]);
    expect(bed.clock.armed()).toEqual([]);

    await expectNotFound(() => bed.service.approve(ID_A));
    await expectNotFound(() => Promise.resolve().then(() => bed.service.deny(ID_A)));
    expect(await bed.db.allowlist.list()).toEqual([]);
  });

  it('a request on a skill’s behalf names the skill in the notice and the pending record; the command stays exact', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build', requester: 'skill weather' });
    const [record] = await bed.service.pending();
    expect(record).toMatchObject({
      id: ID_A,
      tool_name: 'shell (skill weather)',
      command: 'rm -rf build',
      arguments: { command: 'rm -rf build', timeout: 60, workdir: '/work' },
    });
    expect(bed.notices[0]?.text).toMatch(
      /^Approval needed \[[0-9a-f-]{8}\] skill weather asks to run shell: rm -rf build\nin \/work\n/,
    );
    expect(bed.notices[0]?.approval.tool_name).toBe('shell (skill weather)');
    await bed.service.approve(ID_A, true);
    expect(await decision).toEqual({ allowed: true, outcome: 'approved' });
    // `always` stores the program's entry, unchanged by who asked.
    expect(await bed.db.allowlist.list()).toEqual([
      expect.objectContaining({ pattern: 'rm', arg_pattern: null, directory: null }),
    ]);
  });

  it('deny: the agent gets exactly the spec text and the id is gone', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build' });
    expect(await bed.service.deny(ID_A)).toEqual({ denied: true, id: ID_A });
    expect(await decision).toEqual({ allowed: false, outcome: 'denied', message: DENIED_TEXT });
    expect(DENIED_TEXT).toBe('Command denied by user approval gate.');
    expect(bed.clock.armed()).toEqual([]);
    await expectNotFound(() => bed.service.approve(ID_A));
  });

  it('expiry: after 120 s with no decision it is denied with the same text, and the id is gone', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build' });
    expect(await isSettled(decision)).toBe(false);
    bed.clock.elapse();
    expect(await decision).toEqual({ allowed: false, outcome: 'expired', message: DENIED_TEXT });
    expect(await bed.service.pending()).toEqual([]);
    await expectNotFound(() => bed.service.approve(ID_A));
    await expectNotFound(() => Promise.resolve().then(() => bed.service.deny(ID_A)));
  });

  it('a late expiry timer after a decision changes nothing', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build' });
    await bed.service.approve(ID_A);
    bed.clock.elapse();
    expect(await decision).toEqual({ allowed: true, outcome: 'approved' });
  });

  it('honours a configured expiry and says it in the notice', async () => {
    const short = await createBed({ expiryMs: 5_000 });
    const { decision } = await short.gate({ command: 'rm -rf build' });
    expect(short.clock.armed()).toEqual([5_000]);
    expect(short.notices[0]?.text).toContain('within 5 s;');
    short.clock.elapse();
    expect(await decision).toMatchObject({ allowed: false, outcome: 'expired' });
    await short.db.close();
  });

  it('lists several pending approvals oldest first and decides each independently', async () => {
    const { decision: first } = await bed.gate({ command: 'rm -rf build' });
    const { decision: second } = await bed.gate({ command: 'git push --force', sessionId: 'bob' });
    expect((await bed.service.pending()).map((p) => [p.id, p.session_id])).toEqual([
      [ID_A, 'ada'],
      [ID_B, 'bob'],
    ]);
    await bed.service.deny(ID_B);
    expect(await second).toMatchObject({ allowed: false });
    expect(await isSettled(first)).toBe(false);
    await bed.service.approve(ID_A);
    expect(await first).toMatchObject({ allowed: true });
  });

  it('an approval being decided cannot also be denied or expire while the allowlist write runs', async () => {
    let release: () => void = () => undefined;
    const slow = await createBed({
      allowlist: (db) => ({
        ...db.allowlist,
        add: async (entry) => {
          await new Promise<void>((resolve) => (release = resolve));
          return db.allowlist.add(entry);
        },
      }),
    });
    const { decision } = await slow.gate({ command: 'ls -la' });
    const approving = slow.service.approve(ID_A, true);
    await tick();
    await expectNotFound(() => Promise.resolve().then(() => slow.service.deny(ID_A)));
    await expectNotFound(() => slow.service.approve(ID_A));
    slow.clock.elapse();
    release();
    expect(await approving).toMatchObject({ approved: true, id: ID_A, always_allowed: true });
    expect(await decision).toEqual({ allowed: true, outcome: 'approved' });
    expect((await slow.db.allowlist.list()).map((e) => e.pattern)).toEqual(['ls']);
    await slow.db.close();
  });

  it('an allowlist write that fails still approves, with always_allowed false', async () => {
    const broken = await createBed({
      allowlist: (db) => ({
        ...db.allowlist,
        add: () => Promise.reject(new Error('disk full')),
      }),
    });
    const { decision } = await broken.gate({ command: 'ls -la' });
    expect(await broken.service.approve(ID_A, true)).toEqual({
      approved: true,
      id: ID_A,
      always_allowed: false,
    });
    expect(await decision).toEqual({ allowed: true, outcome: 'approved' });
    await broken.db.close();
  });

  it('close() denies everything still pending (shutdown)', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build' });
    await bed.service.close();
    expect(await decision).toEqual({ allowed: false, outcome: 'shutdown', message: DENIED_TEXT });
    expect(await bed.service.pending()).toEqual([]);
  });
});

describe('approval gate: approve with always', () => {
  let bed: Bed;
  beforeEach(async () => {
    bed = await createBed();
  });
  afterEach(async () => {
    await bed.service.close();
    await bed.db.close();
  });

  const entries = async (): Promise<Pick<AllowlistEntry, 'pattern' | 'arg_pattern'>[]> =>
    (await bed.db.allowlist.list()).map(({ pattern, arg_pattern }) => ({ pattern, arg_pattern }));

  it('"an allowlist entry for the program name is stored": sh -c \'ls -la\' stores ls, any arguments, in the workspace', async () => {
    const { decision } = await bed.gate({ command: "sh -c 'ls -la'" });
    expect(await bed.service.approve(ID_A, true)).toEqual({
      approved: true,
      id: ID_A,
      always_allowed: true,
      allowlist_entry: {
        id: expect.any(Number),
        pattern: 'ls',
        arg_pattern: null,
        directory: null,
        created_at: expect.any(Number),
        note: null,
      },
    });
    expect(await decision).toEqual({ allowed: true, outcome: 'approved' });
    expect(await entries()).toEqual([{ pattern: 'ls', arg_pattern: null }]);

    for (const command of ['ls -la', 'ls /tmp', "sh -c 'ls -R'"])
      expect(await bed.decideNow({ command }), command).toEqual({
        allowed: true,
        outcome: 'auto_approved',
      });
    // Another program, or ls joined with one, still asks.
    const { decision: other } = await bed.gate({ command: 'ls; rm -rf build' });
    expect(await bed.service.pending()).toHaveLength(1);
    await bed.service.deny(ID_B);
    expect(await other).toMatchObject({ allowed: false });
    expect(await bed.decisions()).toEqual({
      'decision=prompted': 2,
      'decision=auto_approved': 3,
    });
  });

  it.each([
    ['git', 'git --version', /^git can run other code \(-c settings, aliases and hooks/],
    ['sed', 'sed -n 1p notes.txt', /^sed can run other code \(its e command/],
    ['tar', 'tar --version', /^tar can run other code \(--to-command/],
    ['find', 'find . -name x', /^find can run other code \(-exec/],
    ['python3', "python3 -c 'print(1)'", /^python3 can run other code \(it runs any code/],
    ['node', 'node -e 1', /^node can run other code/],
    ['perl', "perl -e 'print 1'", /^perl can run other code/],
    ['ruby', "ruby -e 'p 1'", /^ruby can run other code/],
    ['bash', 'bash deploy.sh', /^bash can run other code \(it runs any script/],
    ['awk', "awk '{print}' f", /^awk can run other code \(system\(\)/],
    ['env', 'env', /^env can run other code \(it runs the program it is given/],
    ['make', 'make test', /^make can run other code/],
  ])(
    'narrows %s, which can run other code, to the exact command in its directory, with a note saying why',
    async (program, command, note) => {
      const { decision } = await bed.gate({ command });
      const approved = await bed.service.approve(ID_A, true);
      expect(approved).toMatchObject({ approved: true, always_allowed: true });
      expect(approved.always_note).toMatch(note);
      expect(approved.always_note).toMatch(/: only this exact command is allowed$/);
      expect(approved.allowlist_entry).toMatchObject({
        pattern: program,
        arg_pattern: expect.stringMatching(/^\^.*\$$/),
        directory: '/work',
        note: approved.always_note,
      });
      expect(await decision).toEqual({ allowed: true, outcome: 'approved' });
      expect(await bed.decideNow({ command })).toMatchObject({ outcome: 'auto_approved' });
      const { decision: wider } = await bed.gate({ command: `${command} x` });
      expect(await bed.service.pending()).toHaveLength(1);
      await bed.service.deny(ID_B);
      expect(await wider).toMatchObject({ allowed: false });
    },
  );

  it.each([
    ['a pipeline', 'ls | wc -l', /it runs 2 commands/],
    ['an opaque line', 'ls $(cat list)', /the analysis cannot see what it runs/],
    ['a path', './build.sh --release', /\.\/build\.sh is a path/],
    ['a privilege change', 'sudo ls', /the analysis cannot see what it runs/],
  ])('stores nothing for %s (%s) but still approves it, and says why', async (_w, command, why) => {
    const { decision } = await bed.gate({ command });
    expect(await bed.service.approve(ID_A, true)).toEqual({
      approved: true,
      id: ID_A,
      always_allowed: false,
      always_note: expect.stringMatching(why),
    });
    expect(await decision).toEqual({ allowed: true, outcome: 'approved' });
    expect(await entries()).toEqual([]);
  });

  it('a command approved outside the workspace stores the program for that directory only', async () => {
    const { decision } = await bed.gate({
      command: 'cat f.txt',
      arguments: { command: 'cat f.txt', timeout: 60, workdir: '/srv/app' },
    });
    expect((await bed.service.approve(ID_A, true)).allowlist_entry).toMatchObject({
      pattern: 'cat',
      arg_pattern: null,
      directory: '/srv/app',
    });
    await decision;
  });
});

describe('approval gate: chat replies `approve <short id>` / `deny <short id>`', () => {
  let bed: Bed;
  beforeEach(async () => {
    bed = await createBed();
  });
  afterEach(async () => {
    await bed.service.close();
    await bed.db.close();
  });

  it('the 8-character short id in the originating session approves', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build' });
    expect(await bed.service.decideFromChat('ada', 'approve aaaa1111')).toBe('Approved aaaa1111.');
    expect(await decision).toEqual({ allowed: true, outcome: 'approved' });
    expect(await bed.service.pending()).toEqual([]);
  });

  it('is case-insensitive, accepts the whole id and `always`', async () => {
    const { decision } = await bed.gate({ command: "sh -c 'ls -la'" });
    expect(await bed.service.decideFromChat('ada', `  Approve ${ID_A.toUpperCase()} ALWAYS `)).toBe(
      'Approved aaaa1111; ls now runs without asking, with any arguments in the workspace.',
    );
    expect(await decision).toMatchObject({ allowed: true });
    expect((await bed.db.allowlist.list()).map((e) => e.pattern)).toEqual(['ls']);
  });

  it('deny by short id gives the agent the denial text', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build' });
    expect(await bed.service.decideFromChat('ada', 'deny aaaa1111')).toBe('Denied aaaa1111.');
    expect(await decision).toEqual({ allowed: false, outcome: 'denied', message: DENIED_TEXT });
  });

  it.each(['approve a', 'deny abcd', 'approve abcd111'])(
    '%j, shorter than the short id, decides nothing even while approvals wait',
    async (text) => {
      const bedIds = await createBed({ ids: [ID_B, ID_C] });
      const { decision } = await bedIds.gate({ command: 'rm -rf build' });
      await bedIds.gate({ command: 'rm -rf dist' });
      expect(await bedIds.service.decideFromChat('ada', text)).toBe(
        `Send the full 8-character id shown in the approval request, e.g. "${text.split(' ')[0]} abcd1111".`,
      );
      expect((await bedIds.service.pending()).map((p) => p.id)).toEqual([ID_B, ID_C]);
      expect(await isSettled(decision)).toBe(false);
      await bedIds.service.close();
      await bedIds.db.close();
    },
  );

  it('each of two waiting approvals is decided by its own short id', async () => {
    const bedIds = await createBed({ ids: [ID_B, ID_C] });
    const { decision: first } = await bedIds.gate({ command: 'rm -rf build' });
    const { decision: second } = await bedIds.gate({ command: 'rm -rf dist' });
    expect(await bedIds.service.decideFromChat('ada', 'deny abcd2222')).toBe('Denied abcd2222.');
    expect(await second).toMatchObject({ allowed: false, message: DENIED_TEXT });
    expect(await bedIds.service.decideFromChat('ada', 'approve abcd1111')).toBe(
      'Approved abcd1111.',
    );
    expect(await first).toMatchObject({ allowed: true });
    await bedIds.db.close();
  });

  it('another session cannot decide, even with the full id', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build' });
    expect(await bed.service.decideFromChat('mallory', `approve ${ID_A}`)).toBe(
      `No pending approval ${ID_A} in this conversation.`,
    );
    expect(await bed.service.decideFromChat('mallory', 'deny aaaa1111')).toBe(
      'No pending approval aaaa1111 in this conversation.',
    );
    // Nothing waits in mallory's conversation: a short "deny aaaa" is an ordinary message.
    expect(await bed.service.decideFromChat('mallory', 'deny aaaa')).toBeUndefined();
    expect((await bed.service.pending()).map((p) => p.id)).toEqual([ID_A]);
    expect(await isSettled(decision)).toBe(false);
  });

  it('an unknown short id says so', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build' });
    expect(await bed.service.decideFromChat('ada', 'approve ffff1111')).toBe(
      'No pending approval ffff1111 in this conversation.',
    );
    expect(await bed.service.pending()).toHaveLength(1);
    await bed.service.deny(ID_A);
    await decision;
  });

  it.each(['approve cafe', 'deny 42', 'approve add'])(
    '%j with nothing pending in the conversation goes to the model',
    async (text) => {
      expect(await bed.service.decideFromChat('ada', text)).toBeUndefined();
    },
  );

  it('a stale reply with the id a notice showed still gets an answer', async () => {
    expect(await bed.service.decideFromChat('ada', 'approve aaaa1111')).toBe(
      'No pending approval aaaa1111 in this conversation.',
    );
  });

  it.each(['approve of this plan', 'please approve aaaa', 'approve', 'deny aaaa now', 'hello'])(
    '%j is not a decision (the message goes to the model)',
    async (text) => {
      expect(await bed.service.decideFromChat('ada', text)).toBeUndefined();
    },
  );
});

describe('approval gate: notifications and metrics', () => {
  let bed: Bed;
  beforeEach(async () => {
    bed = await createBed();
  });
  afterEach(async () => {
    await bed.service.close();
    await bed.db.close();
  });

  it('sends one plain-text notice with the short id to the originating session', async () => {
    const { decision } = await bed.gate({ command: 'rm -rf build', sessionId: 'telegram-42' });
    expect(bed.notices).toHaveLength(1);
    const [notice] = bed.notices;
    expect(notice?.sessionId).toBe('telegram-42');
    expect(notice?.text).toBe(
      'Approval needed [aaaa1111] shell: rm -rf build\n' +
        'in /work\n' +
        'Reply "approve aaaa1111" or "deny aaaa1111" within 120 s; ' +
        '"approve aaaa1111 always" always allows rm with any arguments in the workspace from now on.',
    );
    expect(notice?.approval).toEqual((await bed.service.pending())[0]);
    expect(await bed.notifications()).toEqual({ 'outcome=sent': 1 });
    await bed.service.deny(ID_A);
    await decision;
  });

  it('counts a notice nobody received, or one that threw, as failed; the approval still pends', async () => {
    bed.notifyResult.value = 'nobody';
    const { decision: first } = await bed.gate({ command: 'rm -rf build' });
    bed.notifyResult.value = 'throws';
    const { decision: second } = await bed.gate({ command: 'rm -rf dist' });
    bed.notifyResult.value = 'sent';
    const { decision: third } = await bed.gate({ command: 'rm -rf tmp' });
    expect(await bed.service.pending()).toHaveLength(3);
    expect(await bed.notifications()).toEqual({ 'outcome=failed': 2, 'outcome=sent': 1 });
    expect(await bed.decisions()).toEqual({ 'decision=prompted': 3 });
    await bed.service.close();
    await Promise.all([first, second, third]);
  });

  it('counts decisions by the three spec labels across a sequence of commands', async () => {
    await bed.db.allowlist.add({ pattern: 'git', arg_pattern: '^git (status|log)( |$)' });
    expect((await bed.decideNow({ command: 'git status' })).allowed).toBe(true);
    expect((await bed.decideNow({ command: 'git log --oneline' })).allowed).toBe(true);
    const { decision: prompted } = await bed.gate({ command: 'git push' });
    await bed.service.deny(ID_A);
    await prompted;
    bed.policy.ask = 'off';
    expect(await bed.decideNow({ command: 'git push' })).toMatchObject({
      outcome: 'denied_silently',
    });
    bed.policy.security = 'deny';
    expect(await bed.decideNow({ command: 'git status' })).toMatchObject({
      outcome: 'denied_outright',
    });
    expect(await bed.decisions()).toEqual({
      'decision=auto_approved': 2,
      'decision=prompted': 1,
      'decision=denied_outright': 2,
    });
  });
});

describe('the gate on the tools (shell, and any gated tool such as the browser)', () => {
  let bed: Bed;
  beforeEach(async () => {
    bed = await createBed();
  });
  afterEach(async () => {
    await bed.service.close();
    await bed.db.close();
  });

  const context: ToolContext = { sessionId: 'ada', channel: 'api' };

  function fakeExecutor() {
    const requests: ExecRequest[] = [];
    const executor: Executor = {
      kind: 'local',
      isolation: 'process-group',
      run(request) {
        requests.push(request);
        const result: ExecResult = {
          exitCode: 0,
          signal: null,
          stdout: 'built\n',
          stderr: '',
          timedOut: false,
          truncated: false,
          durationMs: 12,
        };
        return Promise.resolve(result);
      },
      ping: () => Promise.resolve(true),
      close: () => Promise.resolve(),
    };
    return { executor, requests };
  }

  async function untilPending(count: number): Promise<void> {
    for (let i = 0; i < 50 && (await bed.service.pending()).length < count; i += 1) await tick();
    expect(await bed.service.pending()).toHaveLength(count);
  }

  it('shell: normalises the arguments into the pending record and runs only after approval', async () => {
    const { executor, requests } = fakeExecutor();
    const shell = shellTool({
      executor: () => executor,
      approvals: () => bed.service,
      env: () => ({ PATH: '/usr/bin:/bin' }),
      defaultWorkdir: '/home/ada/.hearth/workspace',
    });
    const result = shell.execute(context, { command: '  make build  ', timeout: 9_999.7 });
    await untilPending(1);
    expect((await bed.service.pending())[0]).toMatchObject({
      tool_name: 'shell',
      command: 'make build',
      arguments: {
        command: 'make build',
        timeout: 600,
        workdir: '/home/ada/.hearth/workspace',
      },
    });
    expect(requests).toEqual([]);
    await bed.service.approve(ID_A);
    expect(await result).toBe('exit code 0\nstdout:\nbuilt\n');
    expect(requests).toEqual([
      {
        command: 'make build',
        timeoutSeconds: 600,
        workdir: '/home/ada/.hearth/workspace',
        env: { PATH: '/usr/bin:/bin' },
        signal: undefined,
      },
    ]);
  });

  it('shell: a denied command never reaches the executor; an empty one is refused before the gate', async () => {
    const { executor, requests } = fakeExecutor();
    const shell = shellTool({
      executor: () => executor,
      approvals: () => bed.service,
      env: () => ({}),
      defaultWorkdir: '/w',
    });
    const result = shell.execute(context, { command: 'make build', timeout: 0, workdir: '/srv' });
    await untilPending(1);
    expect((await bed.service.pending())[0]?.arguments).toEqual({
      command: 'make build',
      timeout: 1,
      workdir: '/srv',
    });
    await bed.service.deny(ID_A);
    expect(await result).toBe(DENIED_TEXT);
    expect(await shell.execute(context, { command: '   ' })).toBe('Error: command is required.');
    expect(requests).toEqual([]);
    expect(await bed.service.pending()).toEqual([]);
  });

  it('a gated tool (the browser) follows the same live policy and describes its call for approval', async () => {
    const calls: Record<string, unknown>[] = [];
    const browser: Tool = {
      name: 'browser',
      description: 'browse',
      parameters: { type: 'object' },
      source: 'builtin',
      execute: (_context, args) => {
        calls.push(args);
        return Promise.resolve('page loaded');
      },
    };
    const gated = gatedTool(
      browser,
      () => bed.service,
      (args) => `navigate ${String(args.url)}`,
    );
    const pending = gated.execute(context, { url: 'https://example.org' });
    await untilPending(1);
    expect((await bed.service.pending())[0]).toMatchObject({
      tool_name: 'browser',
      command: 'navigate https://example.org',
      arguments: { command: 'navigate https://example.org', timeout: 0, workdir: '' },
    });
    await bed.service.deny(ID_A);
    expect(await pending).toBe(DENIED_TEXT);

    bed.policy.security = 'deny';
    expect(await gated.execute(context, { url: 'https://example.org' })).toBe(DENIED_TEXT);
    bed.policy.requireShellApproval = false;
    expect(await gated.execute(context, { url: 'https://example.org' })).toBe('page loaded');
    expect(calls).toEqual([{ url: 'https://example.org' }]);
  });
});
