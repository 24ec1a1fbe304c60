import type { ApiResponse } from '@hearth/client';
import { api } from '../api.ts';
import { useOutcome, useResource } from '../resource-state.ts';
import { LoadState, NameList, OutcomeLine } from './admin-parts.tsx';

type Server = ApiResponse<'/mcp/servers'>['servers'][number];

/** States that are not a working connection, shown as a warning. */
const TROUBLE = new Set(['failed', 'restarting']);

/** External MCP servers (state, tools, last error, limits) and Hearth's own `hearth mcp`. */
export function McpView() {
  // Connections change on their own (connecting, restarting): looked at again every 5 s.
  const servers = useResource(async () => (await api('GET', '/mcp/servers')).servers, 5_000);
  const own = useResource(() => api('GET', '/mcp/status'), 5_000);
  const { outcome, busy, run } = useOutcome();

  const setEnabled = async (s: Server, enabled: boolean) => {
    const done = await run(
      () => api('PATCH', '/mcp/servers/{name}', { params: { name: s.name }, body: { enabled } }),
      (r) => `${r.enabled ? 'Enabled' : 'Disabled'} '${r.name}': ${r.state}.`,
    );
    if (done !== undefined) await servers.reload();
  };
  const spawn = async () => {
    const done = await run(
      () => api('POST', '/mcp/spawn'),
      (r) =>
        r.already_running
          ? `hearth mcp was already running (pid ${r.pid}).`
          : `Started hearth mcp (pid ${r.pid}).`,
    );
    if (done !== undefined) await own.reload();
  };
  const kill = async () => {
    const done = await run(
      () => api('DELETE', '/mcp/server'),
      (r) => (r.killed ? 'Stopped hearth mcp.' : 'hearth mcp was not running.'),
    );
    if (done !== undefined) await own.reload();
  };

  const list = servers.data ?? [];
  return (
    <section aria-labelledby="mcp-title">
      <h2 id="mcp-title">MCP servers</h2>
      <OutcomeLine outcome={outcome} />
      <h3 id="external-title">External servers</h3>
      <LoadState
        resource={servers}
        empty={list.length === 0}
        emptyText="No external MCP servers are configured ([[mcp.servers]] in config.toml)."
        what="the MCP servers"
      />
      <ul class="cards" aria-labelledby="external-title">
        {list.map((s) => (
          <li key={s.name} class="card mcp-server" aria-labelledby={`mcp-${s.name}`}>
            <h4 id={`mcp-${s.name}`}>{s.name}</h4>
            <dl class="facts">
              <dt>State</dt>
              <dd class={TROUBLE.has(s.state) ? 'warn' : ''}>
                {s.state}
                {s.restarts > 0 ? `, ${s.restarts} restart(s)` : ''}
              </dd>
              <dt>Transport</dt>
              <dd>{s.transport}</dd>
              <dt>Tools</dt>
              <dd>
                {s.tool_count}
                {s.tools.length > 0 ? ': ' : ''}
                {s.tools.length > 0 ? <NameList names={s.tools} /> : null}
              </dd>
              {s.last_error !== null ? (
                <>
                  <dt>Last error</dt>
                  <dd class="error">{s.last_error}</dd>
                </>
              ) : null}
              {s.over_limit !== null ? (
                <>
                  <dt>Limit exceeded</dt>
                  <dd class="warn">{s.over_limit}</dd>
                </>
              ) : null}
              {s.withheld.length > 0 ? (
                <>
                  <dt>Withheld</dt>
                  <dd>
                    <ul class="finding-list">
                      {s.withheld.map((w) => (
                        <li key={w.tool}>
                          <code>{w.tool}</code>: {w.reason}
                        </li>
                      ))}
                    </ul>
                  </dd>
                </>
              ) : null}
            </dl>
            <div class="actions">
              <button
                type="button"
                class={s.enabled ? 'danger' : undefined}
                disabled={busy}
                onClick={() => void setEnabled(s, !s.enabled)}
              >
                {s.enabled ? `Disable ${s.name}` : `Enable ${s.name}`}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <h3 id="own-title">Hearth's own MCP server</h3>
      <div class="card" role="group" aria-labelledby="own-title">
        <LoadState resource={own} empty={false} emptyText="" what="its status" />
        {own.data ? (
          <p class="own-status">
            {own.data.running
              ? `hearth mcp is running (pid ${own.data.pid}).`
              : 'hearth mcp is not running.'}
          </p>
        ) : null}
        <p class="hint">
          A child of the gateway speaking MCP over stdio, offering Hearth's tools to an MCP client.
        </p>
        <div class="actions">
          <button type="button" disabled={busy} onClick={() => void spawn()}>
            Start hearth mcp
          </button>
          <button
            type="button"
            class="danger"
            disabled={busy || own.data?.running === false}
            onClick={() => void kill()}
          >
            Stop hearth mcp
          </button>
        </div>
      </div>
    </section>
  );
}
