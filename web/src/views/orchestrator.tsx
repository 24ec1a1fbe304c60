import type { ApiResponse } from '@hearth/client';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import {
  Confirm,
  LoadState,
  Outcome,
  Stats,
  count,
  useLoad,
  useOutcome,
  when,
} from './admin-ui.tsx';

type Node = ApiResponse<'/orchestrator/nodes'>['nodes'][number];
type Overview = {
  nodes: ApiResponse<'/orchestrator/nodes'>;
  status: ApiResponse<'/orchestrator/status'>;
  namespaces: ApiResponse<'/orchestrator/namespaces'>;
};

const words = (text: string): string[] =>
  text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');

/** Orchestrator nodes: health and counters, add one, enable/disable, priority, delete. */
export function OrchestratorView() {
  const [overview, reload] = useLoad(
    async (): Promise<Overview> => {
      const [nodes, status, namespaces] = await Promise.all([
        api('GET', '/orchestrator/nodes'),
        api('GET', '/orchestrator/status'),
        api('GET', '/orchestrator/namespaces'),
      ]);
      return { nodes, status, namespaces };
    },
    [],
    10_000,
  );
  const [outcome, run] = useOutcome();
  const [deleting, setDeleting] = useState<Node>();

  const patch = (node: Node, body: { enabled?: boolean; priority?: number }, done: string) =>
    void run(
      api('PATCH', '/orchestrator/nodes/{name}', { params: { name: node.name }, body }).then(() => {
        void reload();
        return done;
      }),
    );
  const remove = (node: Node) =>
    void run(
      api('DELETE', '/orchestrator/nodes/{name}', { params: { name: node.name } }).then(
        (result) => {
          setDeleting(undefined);
          void reload();
          return `Deleted ${result.name} and ${result.memory_cleared} memory row${result.memory_cleared === 1 ? '' : 's'}`;
        },
      ),
    );

  return (
    <section aria-labelledby="orchestrator-title">
      <h2 id="orchestrator-title">Orchestrator</h2>
      <Outcome outcome={outcome} />
      <LoadState loaded={overview} what="the orchestrator">
        {({ status, namespaces }) => (
          <Stats
            items={[
              [
                'Health',
                <span class={`state-pill ${status.healthy ? 'good' : 'bad'}`}>
                  {status.healthy ? 'healthy' : 'unhealthy'}
                </span>,
              ],
              ['Nodes', `${status.nodes_enabled} of ${status.nodes_total} enabled`],
              ['Requests', count(status.requests_total)],
              ['Errors', count(status.errors_total)],
              ['No match', count(status.no_match_total)],
              ['Memory rows', count(namespaces.total_entries)],
              ['Namespaces in use', `${namespaces.non_empty} of ${namespaces.count}`],
            ]}
          />
        )}
      </LoadState>
      <AddNode onAdded={(name) => void run(reload().then(() => `Added ${name}`))} />
      {deleting ? (
        <Confirm
          title={`Delete ${deleting.name}?`}
          confirm={`Delete ${deleting.name}`}
          cancel="Keep it"
          onConfirm={() => remove(deleting)}
          onCancel={() => setDeleting(undefined)}
        >
          <p>Its memory namespace ({deleting.namespace}) is deleted with it.</p>
        </Confirm>
      ) : null}
      <h3 id="nodes-title">Nodes</h3>
      <LoadState
        loaded={overview}
        what="nodes"
        empty={(data) =>
          data.nodes.nodes.length === 0 ? 'No node yet: add one above.' : undefined
        }
      >
        {({ nodes, status, namespaces }) => (
          <ul class="cards" aria-labelledby="nodes-title">
            {nodes.nodes.map((node) => {
              const counters = status.nodes.find((n) => n.name === node.name);
              const space = namespaces.namespaces.find((n) => n.node === node.name);
              return (
                <li key={node.name} class="card">
                  <h3>{node.name}</h3>
                  <p>
                    <span class={`state-pill ${node.enabled ? 'good' : 'bad'}`}>
                      {node.enabled ? 'enabled' : 'disabled'}
                    </span>{' '}
                    <span class="wrap">
                      {node.model_override} ({node.provider})
                    </span>
                  </p>
                  <Stats
                    items={[
                      ['Requests', count(counters?.requests ?? 0)],
                      ['Errors', count(counters?.errors ?? 0)],
                      ['Tokens in', count(counters?.input_tokens ?? 0)],
                      ['Tokens out', count(counters?.output_tokens ?? 0)],
                      [
                        'Last routed',
                        counters?.last_routed_at ? when(counters.last_routed_at * 1000) : 'never',
                      ],
                      ['Memory rows', count(space?.entries ?? 0)],
                    ]}
                  />
                  {node.keywords.length > 0 ? (
                    <p class="wrap">Keywords: {node.keywords.join(', ')}</p>
                  ) : null}
                  <div class="actions">
                    <button
                      type="button"
                      class={node.enabled ? 'danger' : ''}
                      onClick={() =>
                        patch(
                          node,
                          { enabled: !node.enabled },
                          `${node.enabled ? 'Disabled' : 'Enabled'} ${node.name}`,
                        )
                      }
                    >
                      {node.enabled ? 'Disable' : 'Enable'} {node.name}
                    </button>
                    <Priority
                      node={node}
                      onSet={(priority) =>
                        patch(node, { priority }, `Priority of ${node.name} set to ${priority}`)
                      }
                    />
                    <button type="button" class="danger" onClick={() => setDeleting(node)}>
                      Delete {node.name}…
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </LoadState>
    </section>
  );
}

function Priority(props: { node: Node; onSet: (priority: number) => void }) {
  const [value, setValue] = useState(String(props.node.priority));
  const id = `priority-${props.node.name}`;
  return (
    <form
      class="row"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSet(Number(value));
      }}
    >
      <label for={id}>Priority of {props.node.name}</label>
      <input
        id={id}
        type="number"
        min={-1000}
        max={1000}
        step={1}
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <button type="submit">Set</button>
    </form>
  );
}

/** The form that registers a node; the gateway checks the name and model id (422 names why). */
function AddNode(props: { onAdded: (name: string) => void }) {
  const [name, setName] = useState('');
  const [model, setModel] = useState('');
  const [priority, setPriority] = useState('0');
  const [keywords, setKeywords] = useState('');
  const [error, setError] = useState<string>();
  const submit = () => {
    api('POST', '/orchestrator/nodes', {
      body: {
        name: name.trim(),
        model_override: model.trim(),
        priority: Number(priority),
        keywords: words(keywords),
      },
    }).then(
      (node) => {
        setError(undefined);
        setName('');
        setKeywords('');
        props.onAdded(node.name);
      },
      (e: unknown) => setError((e as Error).message),
    );
  };
  return (
    <form
      class="card"
      aria-labelledby="add-node-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3 id="add-node-title">Add a node</h3>
      <div class="row">
        <label for="node-name">Name</label>
        <input
          id="node-name"
          required
          maxLength={64}
          aria-describedby="node-name-hint"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <span id="node-name-hint" class="muted">
          lower-case letters, digits, _ and -
        </span>
      </div>
      <div class="row">
        <label for="node-model">Model</label>
        <input
          id="node-model"
          required
          placeholder="gpt-4o"
          value={model}
          onInput={(e) => setModel(e.currentTarget.value)}
        />
      </div>
      <div class="row">
        <label for="node-priority">Priority</label>
        <input
          id="node-priority"
          type="number"
          min={-1000}
          max={1000}
          value={priority}
          onInput={(e) => setPriority(e.currentTarget.value)}
        />
      </div>
      <div class="row">
        <label for="node-keywords">Keywords</label>
        <input
          id="node-keywords"
          aria-describedby="node-keywords-hint"
          value={keywords}
          onInput={(e) => setKeywords(e.currentTarget.value)}
        />
        <span id="node-keywords-hint" class="muted">
          comma-separated
        </span>
      </div>
      {error ? (
        <p class="error" role="alert">
          Not added: {error}
        </p>
      ) : null}
      <button type="submit">Add node</button>
    </form>
  );
}
