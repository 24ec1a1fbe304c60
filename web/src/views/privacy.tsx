import type { ApiResponse } from '@hearth/client';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Confirm, LoadState, Outcome, count, useLoad, useOutcome, when } from './admin-ui.tsx';

type Report = ApiResponse<'/privacy/report'>;
type Entry = Report['entries'][number];

const UNATTRIBUTED = 'the gateway itself';

/** Destinations with how many requests went to each (over the entries the report holds). */
function destinations(
  report: Report,
): { destination: string; requests: number; refused: number }[] {
  const counts = new Map<string, { requests: number; refused: number }>();
  for (const destination of report.unique_destinations)
    counts.set(destination, { requests: 0, refused: 0 });
  for (const entry of report.entries) {
    const row = counts.get(entry.destination) ?? { requests: 0, refused: 0 };
    if (entry.refused === null) row.requests += 1;
    else row.refused += 1;
    counts.set(entry.destination, row);
  }
  return [...counts.entries()]
    .map(([destination, row]) => ({ destination, ...row }))
    .sort((a, b) => b.requests + b.refused - (a.requests + a.refused));
}

const sessionOf = (entry: Entry): string => entry.session_id ?? UNATTRIBUTED;

/** The privacy report: where outbound requests went, per session, and clearing it. */
export function PrivacyView() {
  const [session, setSession] = useState('');
  const [version, setVersion] = useState(0);
  const [all] = useLoad(() => api('GET', '/privacy/report'), [version]);
  const [report] = useLoad(
    () =>
      session === ''
        ? api('GET', '/privacy/report')
        : api('GET', '/privacy/report', { query: { session_id: session } }),
    [session, version],
  );
  const [outcome, run] = useOutcome();
  const [clearing, setClearing] = useState(false);

  const sessions =
    all.state === 'ready'
      ? [...new Set(all.data.entries.map((e) => e.session_id).filter((id) => id !== null))].sort()
      : [];
  const scope = session === '' ? 'all sessions' : `session ${session}`;
  const clear = () =>
    void run(
      api(
        'DELETE',
        '/privacy/report',
        session === '' ? {} : { query: { session_id: session } },
      ).then((result) => {
        setClearing(false);
        setVersion((v) => v + 1);
        return `Cleared ${result.cleared} entr${result.cleared === 1 ? 'y' : 'ies'} of ${scope}`;
      }),
    );

  return (
    <section aria-labelledby="privacy-title">
      <h2 id="privacy-title">Privacy</h2>
      <p class="muted">
        Every request this gateway sent off this machine, or refused to send, by destination
        (requests to this machine itself are not recorded).
      </p>
      <div class="row">
        <label for="privacy-session">Session</label>
        <select
          id="privacy-session"
          value={session}
          onChange={(e) => setSession(e.currentTarget.value)}
        >
          <option value="">All sessions</option>
          {sessions.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
        <button type="button" class="danger" onClick={() => setClearing(true)}>
          Clear…
        </button>
      </div>
      <Outcome outcome={outcome} />
      {clearing ? (
        <Confirm
          title="Clear the privacy report?"
          confirm={`Clear ${scope}`}
          cancel="Keep it"
          onConfirm={clear}
          onCancel={() => setClearing(false)}
        >
          <p>The audit entries of {scope} are deleted; they cannot be brought back.</p>
        </Confirm>
      ) : null}
      <LoadState
        loaded={report}
        what="the privacy report"
        empty={(data) =>
          data.total === 0 ? `No outbound request recorded for ${scope}.` : undefined
        }
      >
        {(data) => (
          <>
            <p>
              {count(data.total)} request{data.total === 1 ? '' : 's'} (made or refused) to{' '}
              {data.unique_destinations.length} destination
              {data.unique_destinations.length === 1 ? '' : 's'}
              {data.entries.length < data.total
                ? ` (counts below are over the newest ${count(data.entries.length)})`
                : ''}
              .
            </p>
            <h3 id="privacy-destinations">Destinations</h3>
            <div
              class="table-scroll"
              role="region"
              aria-labelledby="privacy-destinations"
              tabIndex={0}
            >
              <table>
                <thead>
                  <tr>
                    <th scope="col">Destination</th>
                    <th scope="col">Requests</th>
                    <th scope="col">Refused</th>
                  </tr>
                </thead>
                <tbody>
                  {destinations(data).map((row) => (
                    <tr key={row.destination}>
                      <th scope="row" class="wrap">
                        {row.destination}
                      </th>
                      <td>{count(row.requests)}</td>
                      <td>{count(row.refused)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h3 id="privacy-entries">Newest requests</h3>
            <ul class="plain-list" aria-labelledby="privacy-entries">
              {data.entries.slice(0, 50).map((entry, index) => (
                <li key={`${entry.timestamp}-${index}`}>
                  <span class="muted">
                    {when(entry.timestamp * 1000)} · {sessionOf(entry)}
                    {entry.source ? ` · ${entry.source}` : ''}
                  </span>
                  <div class="wrap">
                    {entry.method} {entry.url}
                    {entry.refused === null ? '' : ` — refused: ${entry.refused}`}
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
      </LoadState>
    </section>
  );
}
