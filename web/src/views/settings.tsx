import type { ApiResponse } from '@hearth/client';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import {
  fieldLabel,
  isSecretField,
  LITERAL_KEY_NOTE,
  OLLAMA_DEFAULT_URL,
  PROVIDER_CHOICES,
} from '../providers.ts';
import { FieldInput } from './field-input.tsx';
import { PushSettings } from './push-settings.tsx';

const ROLES = ['primary', 'fallback', 'fast', 'local'] as const;

/**
 * Every provider's key or endpoint (keys write-only: the page only learns whether one is set),
 * the local runtime's URL, the models, and the pipeline.
 */
export function SettingsView() {
  const [settings, setSettings] = useState<ApiResponse<'/settings'>>();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pinned, setPinned] = useState('');
  const [steps, setSteps] = useState(5);
  const [message, setMessage] = useState<string>();
  const load = () => {
    api('GET', '/settings').then(
      (data) => {
        setSettings(data);
        const pipeline = data.pipeline?.max_tool_steps;
        if (typeof pipeline === 'number') setSteps(pipeline);
        const model = data.runtime?.model;
        setPinned(typeof model === 'string' ? model : '');
      },
      (e: unknown) => setMessage((e as Error).message),
    );
  };
  useEffect(load, []);
  const models = settings?.models ?? {};
  const current = (field: string) => {
    const value = models[field];
    return typeof value === 'string' ? value : '';
  };
  const fail = (err: unknown) => setMessage((err as Error).message);

  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <p role="status" class="muted">
        {message}
      </p>
      <form
        class="card"
        aria-labelledby="providers-title"
        onSubmit={(e) => {
          e.preventDefault();
          const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ''));
          if (Object.keys(body).length === 0) return;
          api('POST', '/settings/llm', { body }).then((r) => {
            setFields({});
            setMessage(`Saved ${r.updated_fields.join(', ')}`);
            load();
          }, fail);
        }}
      >
        <h3 id="providers-title">Providers</h3>
        <p class="muted">
          Keys are write-only: saved keys are never shown again. {LITERAL_KEY_NOTE}
        </p>
        {PROVIDER_CHOICES.map((provider) => (
          <fieldset key={provider.name} class="provider">
            <legend>{provider.name}</legend>
            {provider.fields.map((field) => (
              <div class="row" key={field}>
                <label for={field}>
                  {provider.name}: {fieldLabel(field)}
                </label>
                <FieldInput
                  id={field}
                  secret={isSecretField(field)}
                  placeholder={
                    isSecretField(field)
                      ? models[`${field}_set`] === true
                        ? 'set — type to replace'
                        : 'not set'
                      : field === 'ollama_base_url'
                        ? OLLAMA_DEFAULT_URL
                        : 'not set'
                  }
                  value={
                    fields[field] ??
                    (isSecretField(field)
                      ? ''
                      : current(field) || (field === 'ollama_base_url' ? OLLAMA_DEFAULT_URL : ''))
                  }
                  onValue={(value) => setFields({ ...fields, [field]: value })}
                />
              </div>
            ))}
          </fieldset>
        ))}
        <button type="submit">Save providers</button>
      </form>
      <form
        class="card"
        aria-labelledby="models-title"
        onSubmit={(e) => {
          e.preventDefault();
          const model = pinned.trim() === '' ? null : pinned.trim();
          api('POST', '/settings/model', { body: { model } }).then(
            () => setMessage(model === null ? 'Automatic model routing' : `Model: ${model}`),
            fail,
          );
        }}
      >
        <h3 id="models-title">Models</h3>
        <table>
          <caption class="muted">From config.toml ([models]); `hearth setup` changes them.</caption>
          <tbody>
            {ROLES.map((role) => (
              <tr key={role}>
                <th scope="row">{role}</th>
                <td>{current(role) || '(none)'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div class="row">
          <label for="pinned-model">Use this model (empty: automatic)</label>
          <input
            id="pinned-model"
            type="text"
            autocomplete="off"
            value={pinned}
            onInput={(e) => setPinned(e.currentTarget.value)}
          />
        </div>
        <p class="muted">Applies until the gateway restarts.</p>
        <button type="submit">Save model</button>
      </form>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          api('POST', '/settings/pipeline', { body: { max_tool_steps: steps } }).then(
            () => setMessage(`Tool steps per turn: ${steps}`),
            fail,
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
