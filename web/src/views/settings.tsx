import type { ApiResponse } from '@hearth/client';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { PushSettings } from './push-settings.tsx';

const KEY_FIELDS = [
  'anthropic_api_key',
  'openai_api_key',
  'google_api_key',
  'mistral_api_key',
  'groq_api_key',
  'openrouter_api_key',
] as const;

/** Provider keys (write-only: the page only learns whether one is set), and the pipeline. */
export function SettingsView() {
  const [settings, setSettings] = useState<ApiResponse<'/settings'>>();
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [steps, setSteps] = useState(5);
  const [message, setMessage] = useState<string>();
  const load = () => {
    api('GET', '/settings').then(
      (data) => {
        setSettings(data);
        const pipeline = data.pipeline?.max_tool_steps;
        if (typeof pipeline === 'number') setSteps(pipeline);
      },
      (e: unknown) => setMessage((e as Error).message),
    );
  };
  useEffect(load, []);
  const models = settings?.models ?? {};

  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <p role="status" class="muted">
        {message}
      </p>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          const body = Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== ''));
          if (Object.keys(body).length === 0) return;
          api('POST', '/settings/llm', { body }).then(
            (r) => {
              setKeys({});
              setMessage(`Saved ${r.updated_fields.join(', ')}`);
              load();
            },
            (err: unknown) => setMessage((err as Error).message),
          );
        }}
      >
        <h3>Provider keys</h3>
        <p class="muted">Keys are write-only: saved keys are never shown again.</p>
        {KEY_FIELDS.map((field) => (
          <div class="row" key={field}>
            <label for={field}>{field.replace(/_api_key$/, '')}</label>
            <input
              id={field}
              type="password"
              autocomplete="off"
              placeholder={models[`${field}_set`] === true ? 'set — type to replace' : 'not set'}
              value={keys[field] ?? ''}
              onInput={(e) => setKeys({ ...keys, [field]: e.currentTarget.value })}
            />
          </div>
        ))}
        <button type="submit">Save keys</button>
      </form>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          api('POST', '/settings/pipeline', { body: { max_tool_steps: steps } }).then(
            () => setMessage(`Tool steps per turn: ${steps}`),
            (err: unknown) => setMessage((err as Error).message),
          );
        }}
      >
        <h3>Pipeline</h3>
        <div class="row">
          <label for="max-tool-steps">Tool steps per turn (1–20)</label>
          <input
            id="max-tool-steps"
            type="number"
            min={1}
            max={20}
            value={steps}
            onInput={(e) => setSteps(Number(e.currentTarget.value))}
          />
        </div>
        <button type="submit">Save pipeline</button>
      </form>
      <PushSettings onMessage={setMessage} />
    </section>
  );
}
