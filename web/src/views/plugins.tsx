import type { ApiResponse } from '@hearth/client';
import { api } from '../api.ts';
import { useOutcome, useResource } from '../resource-state.ts';
import { LoadState, NameList, OutcomeLine } from './admin-parts.tsx';

type Plugin = ApiResponse<'/plugins'>['plugins'][number];

/** Plugins with their tools and load status; reload one or all from disk, enable or disable. */
export function PluginsView() {
  const plugins = useResource(async () => (await api('GET', '/plugins')).plugins);
  const { outcome, busy, run } = useOutcome();

  const said = (p: Plugin) =>
    `${p.status}${p.load_error !== null ? ` (${p.load_error})` : ''}, tools ${p.tools.join(', ') || 'none'}`;
  const reloadAll = async () => {
    const done = await run(
      () => api('POST', '/plugins/reload'),
      (r) => `Reloaded every skill and plugin from disk: ${r.plugins.length} plugin(s).`,
    );
    if (done !== undefined) await plugins.reload();
  };
  const reloadOne = async (p: Plugin) => {
    const done = await run(
      () => api('POST', '/plugins/{name}/reload', { params: { name: p.name } }),
      (r) => `Reloaded '${r.name}': ${said(r)}.`,
    );
    if (done !== undefined) await plugins.reload();
  };
  const setEnabled = async (p: Plugin, enabled: boolean) => {
    const done = await run(
      () => api('PATCH', '/plugins/{name}', { params: { name: p.name }, body: { enabled } }),
      (r) => `${r.enabled ? 'Enabled' : 'Disabled'} '${r.name}': ${said(r)}.`,
    );
    if (done !== undefined) await plugins.reload();
  };

  const list = plugins.data ?? [];
  return (
    <section aria-labelledby="plugins-title">
      <h2 id="plugins-title">Plugins</h2>
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void reloadAll()}>
          Reload all from disk
        </button>
      </div>
      <OutcomeLine outcome={outcome} />
      <LoadState
        resource={plugins}
        empty={list.length === 0}
        emptyText="No plugins are installed."
        what="the plugins"
      />
      <ul class="cards" aria-labelledby="plugins-title">
        {list.map((p) => (
          <li key={p.name} class="card plugin" aria-labelledby={`plugin-${p.name}`}>
            <h3 id={`plugin-${p.name}`}>
              {p.name} <span class="muted">{p.metadata.version}</span>
            </h3>
            <dl class="facts">
              <dt>Status</dt>
              <dd class={p.status === 'loaded' ? '' : 'warn'}>{p.status}</dd>
              <dt>Tools</dt>
              <dd>
                <NameList names={p.tools} />
              </dd>
              <dt>Origin</dt>
              <dd>
                {p.metadata.origin}, {p.metadata.kind}
              </dd>
              {p.metadata.capabilities.length > 0 ? (
                <>
                  <dt>May ask for</dt>
                  <dd>
                    <NameList names={p.metadata.capabilities} />
                  </dd>
                </>
              ) : null}
              {p.metadata.hosts.length > 0 ? (
                <>
                  <dt>Network</dt>
                  <dd>
                    <NameList names={p.metadata.hosts} />
                  </dd>
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
              <button type="button" disabled={busy} onClick={() => void reloadOne(p)}>
                Reload {p.name}
              </button>
              <button
                type="button"
                class={p.enabled ? 'danger' : undefined}
                disabled={busy}
                onClick={() => void setEnabled(p, !p.enabled)}
              >
                {p.enabled ? `Disable ${p.name}` : `Enable ${p.name}`}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
