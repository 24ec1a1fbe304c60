import type { ApiResponse } from '@hearth/client';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';

type Entry = ApiResponse<'/memory/search'>['results'][number];

/** Search memories, edit an entry's importance, forget one after seeing what goes. */
export function MemoryView() {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Entry[]>();
  const [message, setMessage] = useState<string>();
  const [forgetting, setForgetting] = useState<Entry>();

  const search = () => {
    if (query.trim() === '') return;
    api('GET', '/memory/search', { query: { q: query } }).then(
      (data) => {
        setResults(data.results);
        setMessage(`${data.results.length} found`);
      },
      (e: unknown) => setMessage((e as Error).message),
    );
  };
  const setImportance = (entry: Entry, importance: number) => {
    api('PATCH', '/memory/entries/{id}', { params: { id: entry.id }, body: { importance } }).then(
      (updated) => {
        setResults((list) => list?.map((e) => (e.id === updated.id ? updated : e)));
        setMessage(`Importance of #${entry.id} set to ${importance}`);
      },
      (e: unknown) => setMessage((e as Error).message),
    );
  };
  const forget = (entry: Entry) => {
    api('DELETE', '/memory/entries/{id}', { params: { id: entry.id } }).then(
      () => {
        setResults((list) => list?.filter((e) => e.id !== entry.id));
        setForgetting(undefined);
        setMessage(`Forgot #${entry.id}`);
      },
      (e: unknown) => setMessage((e as Error).message),
    );
  };

  return (
    <section aria-labelledby="memory-title">
      <h2 id="memory-title">Memory</h2>
      <form
        class="row"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          search();
        }}
      >
        <label for="memory-query">Search memories</label>
        <input
          id="memory-query"
          type="search"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        <button type="submit">Search</button>
      </form>
      <p role="status" class="muted">
        {message}
      </p>
      {forgetting ? (
        <div class="card warn-card" role="alertdialog" aria-labelledby="forget-title">
          <h3 id="forget-title">Forget this memory?</h3>
          <blockquote>{forgetting.content}</blockquote>
          <div class="actions">
            <button type="button" class="danger" onClick={() => forget(forgetting)}>
              Forget #{forgetting.id}
            </button>
            <button type="button" onClick={() => setForgetting(undefined)}>
              Keep it
            </button>
          </div>
        </div>
      ) : null}
      <ul class="cards">
        {results?.map((entry) => (
          <li key={entry.id} class="card">
            <p>{entry.content}</p>
            <div class="row">
              <label for={`importance-${entry.id}`}>Importance</label>
              <input
                id={`importance-${entry.id}`}
                type="number"
                min={0}
                max={1}
                step={0.1}
                value={entry.importance_score}
                onChange={(e) => setImportance(entry, Number(e.currentTarget.value))}
              />
              <button type="button" class="danger" onClick={() => setForgetting(entry)}>
                Forget…
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
