import type { ApiResponse, GatewayStatus } from '@hearth/client';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';

type Usage = ApiResponse<'/usage'>;

/** Backends (a fallback shows here) and usage with cost per model. */
export function StatusView() {
  const [status, setStatus] = useState<GatewayStatus>();
  const [usage, setUsage] = useState<Usage>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const load = () => {
      Promise.all([api('GET', '/status'), api('GET', '/usage')]).then(
        ([s, u]) => {
          setStatus(s);
          setUsage(u);
        },
        (e: unknown) => setError((e as Error).message),
      );
    };
    load();
    const timer = setInterval(load, 5_000);
    return () => clearInterval(timer);
  }, []);
  const models = Object.entries(usage?.models ?? {});
  return (
    <section aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      {/* First line: can a model answer the next message? If not, what to do. */}
      {status === undefined ? null : status.model_ready.ok ? (
        <p class="model-ready">Model: {status.model_ready.detail}</p>
      ) : (
        <p class="model-ready card warn-card" role="alert">
          <strong>No model can answer yet:</strong> {status.model_ready.detail}.{' '}
          {status.model_ready.fix} <a href="#setup">Open the set-up page</a>
        </p>
      )}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <p class="muted">Version {status?.version ?? '…'}</p>
      {/* Nothing is gated while the agent can read the web, MCP servers and skills: say so first. */}
      {status?.backends.untrusted_content_warning ? (
        <p class="error" role="alert">
          Approvals are off: {status.backends.untrusted_content_warning}
        </p>
      ) : null}
      <h3 id="backends-title">Backends</h3>
      {/* A region the keyboard can reach and scroll, when the table is wider than a phone. */}
      <div class="table-scroll" role="region" aria-labelledby="backends-title" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col">In use</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(status?.backends ?? {}).map(([part, backend]) => (
              <tr key={part}>
                <th scope="row">{part}</th>
                <td
                  class={
                    /unreachable|fallback|not built|unavailable|refused|no wall|without asking/.test(
                      backend,
                    )
                      ? 'warn'
                      : // An optional part that is off says how to turn it on: not an error.
                        backend.startsWith('off (')
                        ? 'muted'
                        : ''
                  }
                >
                  {backend}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3 id="usage-title">Usage</h3>
      <div class="table-scroll" role="region" aria-labelledby="usage-title" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Input tokens</th>
              <th scope="col">Output tokens</th>
              <th scope="col">Web searches</th>
              <th scope="col">Cost (USD)</th>
            </tr>
          </thead>
          <tbody>
            {models.length === 0 ? (
              <tr>
                <td colSpan={5} class="muted">
                  No usage since the gateway started.
                </td>
              </tr>
            ) : (
              models.map(([model, u]) => (
                <tr key={model}>
                  <th scope="row">{model}</th>
                  <td>{u.input_tokens}</td>
                  <td>{u.output_tokens}</td>
                  <td>{u.web_searches}</td>
                  <td>{u.cost_usd === null ? 'unpriced' : u.cost_usd.toFixed(4)}</td>
                </tr>
              ))
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td colSpan={3} />
              <td>{(usage?.total_cost_usd ?? 0).toFixed(4)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
