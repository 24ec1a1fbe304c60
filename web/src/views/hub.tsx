import type { ApiResponse } from '@hearth/client';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { useOutcome, useResource } from '../resource-state.ts';
import { ConfirmCard, LoadState, NameList, OutcomeLine } from './admin-parts.tsx';
import { HubInstallForm } from './hub-install.tsx';
import { HubScanBox } from './hub-scan.tsx';

type Package = ApiResponse<'/hub/packages'>['packages'][number];

/** The package hub: what is installed (enable, disable, uninstall), install by URL, scan code. */
export function HubView() {
  const hub = useResource(async () => {
    const [status, list] = await Promise.all([
      api('GET', '/hub/status'),
      api('GET', '/hub/packages'),
    ]);
    return { status, packages: list.packages };
  });
  const { outcome, busy, run } = useOutcome();
  const [removing, setRemoving] = useState<string>();

  const setEnabled = async (p: Package, enabled: boolean) => {
    const done = await run(
      () => api('PATCH', '/hub/{name}', { params: { name: p.name }, body: { enabled } }),
      (r) => `${r.enabled ? 'Enabled' : 'Disabled'} '${r.name}' (${r.state}).`,
    );
    if (done !== undefined) await hub.reload();
  };
  const remove = async (p: Package) => {
    const done = await run(
      () => api('DELETE', '/hub/{name}', { params: { name: p.name } }),
      (r) => `Uninstalled '${r.name}': its files and tools are gone.`,
    );
    setRemoving(undefined);
    if (done !== undefined) await hub.reload();
  };

  const packages = hub.data?.packages ?? [];
  const status = hub.data?.status;
  return (
    <section aria-labelledby="hub-title">
      <h2 id="hub-title">Hub</h2>
      {status && !status.available ? (
        <p class="warn" role="alert">
          The hub is not available on this gateway.
        </p>
      ) : null}
      <h3 id="packages-title">Installed packages</h3>
      {status?.available ? (
        <p class="muted">
          {status.total} installed, {status.enabled} enabled.
        </p>
      ) : null}
      <OutcomeLine outcome={outcome} />
      <LoadState
        resource={hub}
        empty={packages.length === 0}
        emptyText="No packages are installed. Install one by its URL below."
        what="the hub"
      />
      <ul class="cards" aria-labelledby="packages-title">
        {packages.map((p) => (
          <li key={p.name} class="card package" aria-labelledby={`package-${p.name}`}>
            <h4 id={`package-${p.name}`}>
              {p.name} <span class="muted">{p.version}</span>
            </h4>
            <dl class="facts">
              <dt>State</dt>
              <dd class={p.state === 'active' ? '' : 'warn'}>
                {p.enabled ? 'enabled' : 'disabled'}, {p.state}
              </dd>
              <dt>Tools</dt>
              <dd>
                <NameList names={p.tools} />
              </dd>
              <dt>From</dt>
              <dd>{p.origin}</dd>
              {p.tags.length > 0 ? (
                <>
                  <dt>Tags</dt>
                  <dd>{p.tags.join(', ')}</dd>
                </>
              ) : null}
              {p.load_error !== null ? (
                <>
                  <dt>Load error</dt>
                  <dd class="error">{p.load_error}</dd>
                </>
              ) : null}
            </dl>
            <div class="actions">
              <button type="button" disabled={busy} onClick={() => void setEnabled(p, !p.enabled)}>
                {p.enabled ? `Disable ${p.name}` : `Enable ${p.name}`}
              </button>
              <button type="button" class="danger" onClick={() => setRemoving(p.name)}>
                Uninstall…
              </button>
            </div>
            {removing === p.name ? (
              <ConfirmCard
                title={`Uninstall ${p.name}?`}
                confirmLabel={`Uninstall ${p.name}`}
                busy={busy}
                onConfirm={() => void remove(p)}
                onCancel={() => setRemoving(undefined)}
              >
                <p>Its files are deleted and its tools leave the agent.</p>
              </ConfirmCard>
            ) : null}
          </li>
        ))}
      </ul>
      <HubInstallForm onInstalled={() => void hub.reload()} />
      <HubScanBox />
    </section>
  );
}
