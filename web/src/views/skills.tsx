import type { ApiResponse } from '@hearth/client';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { useOutcome, useResource } from '../resource-state.ts';
import {
  CodeBlock,
  ConfirmCard,
  Findings,
  LoadState,
  NameList,
  OutcomeLine,
} from './admin-parts.tsx';

type Proposal = ApiResponse<'/skills/review/pending'>['pending'][number];
type Skill = ApiResponse<'/skills'>['skills'][number];
type Asking = { proposal: Proposal; action: 'approve' | 'reject' } | { skill: Skill };

const when = (ms: number) => new Date(ms).toLocaleString();

/** The agent's skill proposals to review (code in full, scanner findings), then installed skills. */
export function SkillsView() {
  const queue = useResource(async () => (await api('GET', '/skills/review/pending')).pending);
  const installed = useResource(async () => (await api('GET', '/skills')).skills);
  const { outcome, busy, run } = useOutcome();
  const [asking, setAsking] = useState<Asking>();

  const decide = async (proposal: Proposal, action: 'approve' | 'reject') => {
    const params = { params: { id: proposal.id } };
    const done = await run(
      () =>
        action === 'approve'
          ? api('POST', '/skills/review/{id}/approve', params).then(
              (r) =>
                `Approved '${r.skill.name}': ${r.skill.state}, tools ${r.skill.tools.join(', ') || 'none'}.`,
            )
          : api('POST', '/skills/review/{id}/reject', params).then(
              (r) => `Rejected '${r.name}': nothing was written.`,
            ),
      (text) => text,
    );
    setAsking(undefined);
    if (done !== undefined) await Promise.all([queue.reload(), installed.reload()]);
  };
  const quarantine = async (skill: Skill) => {
    const done = await run(
      () => api('POST', '/skills/{name}/quarantine', { params: { name: skill.name } }),
      (s) => `Quarantined '${s.name}': unloaded (${s.state}), its files kept.`,
    );
    setAsking(undefined);
    if (done !== undefined) await installed.reload();
  };

  const pending = queue.data ?? [];
  const skills = installed.data ?? [];
  return (
    <section aria-labelledby="skills-title">
      <h2 id="skills-title">Skills</h2>
      <OutcomeLine outcome={outcome} />
      <h3 id="review-title">Waiting for review{queue.data ? ` (${pending.length})` : ''}</h3>
      <LoadState
        resource={queue}
        empty={pending.length === 0}
        emptyText="No skill proposals are waiting."
        what="the review queue"
      />
      <ul class="cards" aria-labelledby="review-title">
        {pending.map((p) => (
          <li key={p.id} class="card proposal" aria-labelledby={`proposal-${p.id}`}>
            <h4 id={`proposal-${p.id}`}>{p.name}</h4>
            <dl class="facts">
              <dt>Kind</dt>
              <dd>{p.kind}</dd>
              <dt>Proposed</dt>
              <dd>
                {when(p.created_at)} in session <code>{p.session_id}</code>
              </dd>
              <dt>Tools</dt>
              <dd>
                <NameList names={p.tools.map((t) => `${p.name}_${t}`)} />
              </dd>
              {p.description !== null ? (
                <>
                  <dt>Description</dt>
                  <dd>{p.description}</dd>
                </>
              ) : null}
            </dl>
            {p.tool_descriptions && p.tool_descriptions.length > 0 ? (
              <>
                <p class="hint">What the model will read about each tool:</p>
                <ul class="finding-list">
                  {p.tool_descriptions.map((t) => (
                    <li key={t.name}>
                      <code>{t.name}</code>: {t.description}
                      {t.truncated ? ' (cut)' : ''}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {p.scan ? <Findings findings={p.scan.findings} flagged={p.scan.flagged} /> : null}
            <CodeBlock code={p.code} label={`Code of ${p.name}`} findings={p.scan?.findings} />
            <div class="actions">
              <button type="button" onClick={() => setAsking({ proposal: p, action: 'approve' })}>
                Approve…
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => setAsking({ proposal: p, action: 'reject' })}
              >
                Reject…
              </button>
            </div>
            {asking && 'proposal' in asking && asking.proposal.id === p.id ? (
              <ConfirmCard
                key={asking.action}
                title={`${asking.action === 'approve' ? 'Approve' : 'Reject'} ${p.name}?`}
                confirmLabel={
                  asking.action === 'approve' ? `Approve and load ${p.name}` : `Reject ${p.name}`
                }
                busy={busy}
                onConfirm={() => void decide(p, asking.action)}
                onCancel={() => setAsking(undefined)}
              >
                <p>
                  {asking.action === 'approve'
                    ? 'The code above is written and loaded; its tools are callable from the next turn.'
                    : 'The proposal is dropped and never written.'}
                </p>
              </ConfirmCard>
            ) : null}
          </li>
        ))}
      </ul>
      <h3 id="installed-title">Installed skills{installed.data ? ` (${skills.length})` : ''}</h3>
      <LoadState
        resource={installed}
        empty={skills.length === 0}
        emptyText="No skills are installed."
        what="the installed skills"
      />
      <ul class="cards" aria-labelledby="installed-title">
        {skills.map((s) => (
          <li key={s.name} class="card skill" aria-labelledby={`skill-${s.name}`}>
            <h4 id={`skill-${s.name}`}>{s.name}</h4>
            <dl class="facts">
              <dt>State</dt>
              <dd class={s.state === 'active' ? '' : 'warn'}>{s.state}</dd>
              <dt>Tools</dt>
              <dd>
                <NameList names={s.tools} />
              </dd>
              <dt>Origin</dt>
              <dd>
                {s.origin}, version {s.version}, {s.kind}
                {s.plugin ? ', plugin' : ''}
              </dd>
              {s.capabilities.length > 0 ? (
                <>
                  <dt>May ask for</dt>
                  <dd>
                    <NameList names={s.capabilities} />
                  </dd>
                </>
              ) : null}
              <dt>Network</dt>
              <dd>{s.hosts.length > 0 ? <NameList names={s.hosts} /> : 'none'}</dd>
              {s.without_wall ? (
                <>
                  <dt>Wall</dt>
                  <dd class="warn">runs without a wall where none exists</dd>
                </>
              ) : null}
              {s.load_error !== null ? (
                <>
                  <dt>Load error</dt>
                  <dd class="error">{s.load_error}</dd>
                </>
              ) : null}
            </dl>
            {s.state === 'quarantined' ? null : (
              <div class="actions">
                <button type="button" class="danger" onClick={() => setAsking({ skill: s })}>
                  Quarantine…
                </button>
              </div>
            )}
            {asking && 'skill' in asking && asking.skill.name === s.name ? (
              <ConfirmCard
                title={`Quarantine ${s.name}?`}
                confirmLabel={`Quarantine ${s.name}`}
                busy={busy}
                onConfirm={() => void quarantine(s)}
                onCancel={() => setAsking(undefined)}
              >
                <p>
                  Its tools are unloaded; its files stay. Writing it again clears the quarantine.
                </p>
              </ConfirmCard>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
