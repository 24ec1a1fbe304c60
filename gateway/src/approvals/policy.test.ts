import { describe, expect, it } from 'vitest';
import type { ApprovalPolicy, PolicyOutcome } from './ports.ts';
import { decide } from './policy.ts';

type Row = [ApprovalPolicy['security'], ApprovalPolicy['ask'], boolean, PolicyOutcome];

const ASKS: ApprovalPolicy['ask'][] = ['off', 'on-miss', 'always'];

// The spec's table, one row per (security, ask, allowlisted) combination.
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

describe('approval policy decision', () => {
  it.each(TABLE)(
    'security=%s ask=%s allowlisted=%s gives %s',
    (security, ask, allowlisted, outcome) => {
      expect(decide({ security, ask, requireShellApproval: true }, allowlisted)).toBe(outcome);
    },
  );

  it.each(TABLE)(
    'security=%s ask=%s allowlisted=%s is not gated when shell approval is off',
    (security, ask, allowlisted) => {
      expect(decide({ security, ask, requireShellApproval: false }, allowlisted)).toBe('not_gated');
    },
  );
});

describe('approval policy decision for a turn that has read untrusted content', () => {
  /** The table with every allowlist auto-approve turned into a prompt. */
  const TAINTED: Row[] = TABLE.map(([security, ask, allowlisted, outcome]) => [
    security,
    ask,
    allowlisted,
    security === 'allowlist' && outcome === 'auto_approved' ? 'prompted' : outcome,
  ]);

  it.each(TAINTED)(
    'security=%s ask=%s allowlisted=%s gives %s (untrusted_content = prompt)',
    (security, ask, allowlisted, outcome) => {
      const policy: ApprovalPolicy = { security, ask, requireShellApproval: true };
      expect(decide(policy, allowlisted, true)).toBe(outcome);
      expect(decide({ ...policy, untrustedContent: 'prompt' }, allowlisted, true)).toBe(outcome);
    },
  );

  it.each(TABLE)(
    'security=%s ask=%s allowlisted=%s gives the table %s with untrusted_content = trust',
    (security, ask, allowlisted, outcome) => {
      const policy: ApprovalPolicy = {
        security,
        ask,
        requireShellApproval: true,
        untrustedContent: 'trust',
      };
      expect(decide(policy, allowlisted, true)).toBe(outcome);
    },
  );

  it.each(TABLE)(
    'security=%s ask=%s allowlisted=%s: a clean turn gives the table %s',
    (security, ask, allowlisted, outcome) => {
      expect(decide({ security, ask, requireShellApproval: true }, allowlisted, false)).toBe(
        outcome,
      );
    },
  );
});

describe('approval policy decision for a call that carries a secret', () => {
  it.each(['prompt', 'trust'] as const)(
    'untrusted_content=%s: what the allowlist would auto-approve is prompted',
    (untrustedContent) => {
      for (const ask of ['on-miss', 'off'] as const) {
        const policy: ApprovalPolicy = {
          security: 'allowlist',
          ask,
          requireShellApproval: true,
          untrustedContent,
        };
        expect(decide(policy, true, false, true)).toBe('prompted');
      }
    },
  );

  it('full keeps its meaning (no gate), deny still denies, and an unlisted command is as the table says', () => {
    const base = { ask: 'on-miss', requireShellApproval: true } as const;
    expect(decide({ ...base, security: 'full' }, true, false, true)).toBe('auto_approved');
    expect(decide({ ...base, security: 'deny' }, true, false, true)).toBe('denied_outright');
    expect(decide({ ...base, security: 'allowlist', ask: 'off' }, false, false, true)).toBe(
      'denied_silently',
    );
  });
});
