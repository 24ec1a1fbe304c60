import type { ApiResponse } from '@hearth/client';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { useOutcome } from '../resource-state.ts';
import { Findings, OutcomeLine } from './admin-parts.tsx';

type Scan = ApiResponse<'/hub/scan', 'POST'>;

/** Paste code and see the verdict an install would reach, without installing anything. */
export function HubScanBox() {
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<'mjs' | 'py'>('mjs');
  const [scan, setScan] = useState<Scan>();
  const { outcome, busy, run } = useOutcome();

  const submit = async () => {
    setScan(undefined);
    const result = await run(
      () => api('POST', '/hub/scan', { body: { code, kind } }),
      (r) =>
        r.refused
          ? 'Refused: no install of this code would succeed, even forced.'
          : r.flagged
            ? 'Flagged: an install needs force.'
            : 'Clean: an install would pass the scanner.',
    );
    if (result !== undefined) setScan(result);
  };

  return (
    <form
      class="card stack"
      aria-labelledby="scan-title"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3 id="scan-title">Scan code</h3>
      <label for="scan-code">Code to scan</label>
      <textarea
        id="scan-code"
        rows={8}
        spellcheck={false}
        class="mono"
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
      />
      <label for="scan-kind">Language</label>
      <select
        id="scan-kind"
        value={kind}
        onChange={(e) => setKind(e.currentTarget.value === 'py' ? 'py' : 'mjs')}
      >
        <option value="mjs">JavaScript module (.mjs)</option>
        <option value="py">Python (.py)</option>
      </select>
      <div class="actions">
        <button type="submit" disabled={busy || code.trim() === ''}>
          {busy ? 'Scanning…' : 'Scan'}
        </button>
      </div>
      <OutcomeLine outcome={outcome} />
      {scan ? (
        <div class="scan-result">
          <Findings findings={scan.findings} flagged={scan.flagged} />
          {scan.tool_descriptions.length > 0 ? (
            <ul class="finding-list" aria-label="Tools it would add">
              {scan.tool_descriptions.map((t) => (
                <li key={t.name}>
                  <code>{t.name}</code>: {t.description}
                  {t.truncated ? ' (cut)' : ''}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
