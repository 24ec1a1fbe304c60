import { useState } from 'preact/hooks';

/** Asked once per tab when the gateway has an API key; the key stays in session storage. */
export function KeyDialog(props: { error?: string; onKey: (key: string) => void }) {
  const [key, setKey] = useState('');
  return (
    <main class="key-dialog">
      <form
        class="card"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim() !== '') props.onKey(key.trim());
        }}
      >
        <h1>Hearth</h1>
        <p>This gateway needs its API key. It is kept for this tab only.</p>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autocomplete="current-password"
          value={key}
          autoFocus
          onInput={(event) => setKey(event.currentTarget.value)}
          aria-describedby={props.error ? 'api-key-error' : undefined}
        />
        {props.error ? (
          <p id="api-key-error" class="error" role="alert">
            {props.error}
          </p>
        ) : null}
        <button type="submit">Unlock</button>
      </form>
    </main>
  );
}
