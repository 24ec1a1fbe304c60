import type { ApiResponse } from '@hearth/client';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { useOutcome } from '../resource-state.ts';
import { Findings, NameList, OutcomeLine } from './admin-parts.tsx';

type Installed = ApiResponse<'/hub/packages', 'POST'>;

/** Install a package by its https: (or data:) URL, optionally pinned to a SHA-256 digest. */
export function HubInstallForm({ onInstalled }: { onInstalled: () => void }) {
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [checksum, setChecksum] = useState('');
  const [force, setForce] = useState(false);
  const [installed, setInstalled] = useState<Installed>();
  const { outcome, busy, run } = useOutcome();

  const install = async () => {
    setInstalled(undefined);
    const body = {
      url: url.trim(),
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(checksum.trim() ? { expected_checksum: checksum.trim() } : {}),
      ...(force ? { force: true } : {}),
    };
    const result = await run(
      () => api('POST', '/hub/packages', { body }),
      (r) =>
        `Installed '${r.name}' ${r.version}${r.forced ? ' (forced past the scanner)' : ''}: ${r.state}.`,
    );
    if (result !== undefined) {
      setInstalled(result);
      onInstalled();
    }
  };

  return (
    <form
      class="card stack"
      aria-labelledby="install-title"
      onSubmit={(e) => {
        e.preventDefault();
        void install();
      }}
    >
      <h3 id="install-title">Install a package</h3>
      <label for="hub-url">Package URL</label>
      <input
        id="hub-url"
        type="url"
        required
        placeholder="https://…/package.mjs"
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
      />
      <label for="hub-name">Name (optional)</label>
      <input id="hub-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="hub-checksum">SHA-256 checksum (optional)</label>
      <input
        id="hub-checksum"
        aria-describedby="hub-checksum-hint"
        spellcheck={false}
        autocomplete="off"
        value={checksum}
        onInput={(e) => setChecksum(e.currentTarget.value)}
      />
      <p id="hub-checksum-hint" class="hint">
        64 hexadecimal digits; the download is refused when its digest differs.
      </p>
      <label class="check">
        <input
          type="checkbox"
          checked={force}
          onChange={(e) => setForce(e.currentTarget.checked)}
        />
        Install even if the scanner flags it
      </label>
      <div class="actions">
        <button type="submit" disabled={busy || url.trim() === ''}>
          {busy ? 'Installing…' : 'Install'}
        </button>
      </div>
      <OutcomeLine outcome={outcome} />
      {installed ? (
        <div class="install-result">
          <dl class="facts">
            <dt>SHA-256</dt>
            <dd>
              <code>{installed.sha256}</code>
            </dd>
            <dt>Tools</dt>
            <dd>
              <NameList names={installed.tools} />
            </dd>
          </dl>
          <Findings findings={installed.scan.findings} flagged={installed.scan.flagged} />
        </div>
      ) : null}
    </form>
  );
}
