import type { ApiResponse, GatewayStatus } from '@hearth/client';
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

type ModelReady = GatewayStatus['model_ready'];
type ProviderStatus = ApiResponse<'/models'>['providers'][number];

/** The values a provider's fields start with: the Ollama URL has its default filled in. */
function initialValues(fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    fields.map((field) => [field, field === 'ollama_base_url' ? OLLAMA_DEFAULT_URL : '']),
  );
}

/** A live check's answer as one sentence. */
function checkText(status: ProviderStatus | undefined): string {
  if (status === undefined) return 'The gateway did not report on this provider.';
  if (status.reachable === true) return `Live check: reachable (${status.detail}).`;
  if (status.reachable === false) return `Live check failed: ${status.detail}.`;
  return `Live check: ${status.detail}.`;
}

/**
 * First run: choose a provider, give its key (or the local runtime's URL) and a model, save, and
 * see at once whether a model can answer. Keys go to `POST /settings/llm` (persisted to
 * config.toml), the model to `POST /settings/model` (until the gateway restarts).
 */
export function SetupView() {
  const [provider, setProvider] = useState(PROVIDER_CHOICES[0]!.name);
  const choice = PROVIDER_CHOICES.find((p) => p.name === provider) ?? PROVIDER_CHOICES[0]!;
  const [values, setValues] = useState<Record<string, string>>(initialValues(choice.fields));
  const [model, setModel] = useState(choice.defaultModel);
  const [ready, setReady] = useState<ModelReady>();
  const [check, setCheck] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const readStatus = async () => {
    const status = await api('GET', '/status');
    setReady(status.model_ready);
  };
  useEffect(() => {
    readStatus().catch((e: unknown) => setProblem((e as Error).message));
  }, []);

  const choose = (name: string) => {
    const next = PROVIDER_CHOICES.find((p) => p.name === name) ?? PROVIDER_CHOICES[0]!;
    setProvider(next.name);
    setValues(initialValues(next.fields));
    setModel(next.defaultModel);
    setCheck(undefined);
    setProblem(undefined);
  };

  const liveCheck = async () => {
    const models = await api('GET', '/models', { query: { live: 'true' } });
    setCheck(checkText(models.providers.find((p) => p.provider === provider)));
  };

  const save = async () => {
    setBusy(true);
    setProblem(undefined);
    setCheck(undefined);
    try {
      const body = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
      if (Object.keys(body).length > 0) await api('POST', '/settings/llm', { body });
      if (model.trim() !== '') {
        await api('POST', '/settings/model', { body: { model: model.trim() } });
      }
      await liveCheck();
      await readStatus();
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="setup-title">
      <h2 id="setup-title">Set up a model</h2>
      {ready === undefined ? (
        <p class="muted">Checking whether a model can answer…</p>
      ) : ready.ok ? (
        <p role="status">
          Ready: {ready.detail.replace(/^ready: /, '')}. <a href="#chat">Start chatting</a>
        </p>
      ) : (
        <p role="status">
          <strong>No model can answer yet.</strong> {ready.detail}
        </p>
      )}
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div class="row">
          <label for="setup-provider">Provider</label>
          <select
            id="setup-provider"
            value={provider}
            onChange={(e) => choose(e.currentTarget.value)}
          >
            {PROVIDER_CHOICES.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        {choice.fields.map((field) => (
          <div class="row" key={`${provider}-${field}`}>
            <label for={`setup-${field}`}>{fieldLabel(field)}</label>
            <FieldInput
              id={`setup-${field}`}
              secret={isSecretField(field)}
              value={values[field] ?? ''}
              onValue={(value) => setValues({ ...values, [field]: value })}
            />
          </div>
        ))}
        {choice.fields.some(isSecretField) ? <p class="muted">{LITERAL_KEY_NOTE}</p> : null}
        {provider === 'bedrock' ? (
          <p class="muted">
            Bedrock's credentials come from the AWS SDK chain on the gateway's host.
          </p>
        ) : null}
        <div class="row">
          <label for="setup-model">Model</label>
          <input
            id="setup-model"
            type="text"
            autocomplete="off"
            value={model}
            onInput={(e) => setModel(e.currentTarget.value)}
          />
        </div>
        <p class="muted">
          Keys and URLs are saved to config.toml; the model applies until the gateway restarts
          (`hearth setup` writes it to config.toml).
        </p>
        <div class="actions">
          <button type="submit" disabled={busy}>
            Save and check
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void liveCheck().catch((e: unknown) => setProblem((e as Error).message))}
          >
            Check only
          </button>
        </div>
      </form>
      <p role="status" aria-live="polite" class="muted">
        {check}
      </p>
      {problem ? (
        <p role="alert" class="error">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
