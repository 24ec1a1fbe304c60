/**
 * What `hearth setup` writes, decided from the answers (pure: no I/O). One provider of the 19,
 * its settings fields (a key is a literal or an `ENV:`/`op://` reference), the models to use,
 * and optionally a gateway API key for use beyond this machine.
 */
import { CliError } from '../cli-error.ts';

export interface ProviderChoice {
  name: string;
  /** `[models]` fields that configure it, e.g. `openai_api_key` or `azure_api_key, azure_endpoint`. */
  settingsFields: readonly string[];
  defaultModel: string;
  /** Model-id prefixes that route to it (`claude-`, `ollama/`, …): the gateway's inference. */
  prefixes: readonly string[];
  /** Values a settings field takes when the answer is empty (Ollama's local URL). */
  fieldDefaults: Readonly<Record<string, string>>;
  liveCheck: 'openai-models' | 'ollama-tags' | null;
}

export interface SetupAnswers {
  provider: string;
  /** Values of the provider's settings fields, by field name. */
  fields: Record<string, string>;
  primary?: string;
  fast?: string;
  fallback?: string;
  /** A gateway API key to set (already generated or given), if any. */
  gatewayApiKey?: string;
}

export interface SetupPlan {
  provider: ProviderChoice;
  /** `[models]` values to write. */
  models: Record<string, string>;
  /** `[gateway]` values to write (api_key), possibly none. */
  gateway: Record<string, string>;
  /** Field names whose values are secrets: never printed. */
  secretFields: string[];
}

export const isSecretField = (field: string): boolean => field.endsWith('_api_key');

/** A literal key: visible ASCII, 8 to 512 characters; or an ENV:/op:// reference. */
const SECRET = /^[\x21-\x7e]{8,512}$/;
const ENV_REF = /^ENV:[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const OP_REF = /^op:\/\/[^/\s]+\/[^/\s]+\/[^/\s]+$/;
/** A model id: no spaces or controls, at most 200 characters. */
const MODEL = /^[\x21-\x7e]{1,200}$/;

export function checkSecret(field: string, value: string): string {
  if (value.startsWith('ENV:')) {
    if (ENV_REF.test(value)) return value;
    throw new CliError(
      `${field}: ENV: must be followed by a variable name (ENV:OPENAI_API_KEY)`,
      2,
    );
  }
  if (value.startsWith('op://')) {
    if (OP_REF.test(value)) return value;
    throw new CliError(`${field}: an op:// reference is op://<vault>/<item>/<field>`, 2);
  }
  if (!SECRET.test(value))
    throw new CliError(`${field}: 8 to 512 visible characters without spaces (or ENV:/op://)`, 2);
  return value;
}

/** Settings fields that may stay empty (local servers often need no key). */
const OPTIONAL_FIELDS = new Set(['openai_compatible_api_key']);

function checkField(field: string, value: string): string {
  if (isSecretField(field)) return checkSecret(field, value);
  if (field.endsWith('_base_url') || field.endsWith('_endpoint')) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new CliError(`${field}: not a URL: ${value}`, 2);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CliError(`${field}: use an http:// or https:// URL`, 2);
    return value;
  }
  if (!/^[\x21-\x7e]{1,200}$/.test(value)) throw new CliError(`${field}: not a valid value`, 2);
  return value;
}

/**
 * One settings field of `provider` as it will be written: the answer trimmed, or the field's
 * default when the answer is empty; undefined for an optional field left empty. Throws (exit 2)
 * for an empty required field or a bad value, so an interactive setup can ask again at once.
 */
export function settingsValue(
  provider: ProviderChoice,
  field: string,
  answer: string | undefined,
): string | undefined {
  const value = answer?.trim() || provider.fieldDefaults[field] || '';
  if (value === '') {
    if (OPTIONAL_FIELDS.has(field)) return undefined;
    throw new CliError(`${field} is needed for ${provider.name}`, 2);
  }
  return checkField(field, value);
}

/** The provider the gateway infers from a model id (the first whose prefix it starts with). */
function providerOf(catalog: readonly ProviderChoice[], id: string): ProviderChoice | undefined {
  const lower = id.toLowerCase();
  return catalog.find((p) => p.prefixes.some((prefix) => lower.startsWith(prefix)));
}

/**
 * The id `hearth setup` writes for a model of `provider`, so that the gateway routes it there
 * (it infers the provider from the prefix, and never uses an id it cannot route). An id that
 * already routes to `provider` is kept; a provider whose prefix is a routing label (`ollama/`,
 * `groq/`, `custom/`, …) gets it put in front (`llama3.2:1b` → `ollama/llama3.2:1b`, also when
 * the bare name looks like another vendor's, such as Ollama's `qwen-…` or `deepseek-r1`); for
 * the others an id that would go elsewhere is refused (exit 2) with the prefixes it needs.
 */
export function modelIdFor(
  catalog: readonly ProviderChoice[],
  provider: ProviderChoice,
  role: 'primary' | 'fast' | 'fallback',
  answer: string,
): string {
  const id = answer.trim();
  if (!MODEL.test(id)) throw new CliError(`--${role}: not a model id: ${answer}`, 2);
  if (providerOf(catalog, id)?.name === provider.name) return id;
  const label = provider.prefixes.find((prefix) => prefix.endsWith('/'));
  if (label !== undefined) {
    const labelled = `${label}${id}`;
    if (!MODEL.test(labelled)) throw new CliError(`--${role}: not a model id: ${answer}`, 2);
    return labelled;
  }
  const other = providerOf(catalog, id);
  throw new CliError(
    `--${role}: ${id} is not a ${provider.name} model (${
      other ? `the gateway would send it to ${other.name}` : 'no provider takes that id'
    }); ${provider.name} model ids start with ${provider.prefixes.join(', ')}`,
    2,
  );
}

export function planSetup(catalog: readonly ProviderChoice[], answers: SetupAnswers): SetupPlan {
  const provider = catalog.find((p) => p.name === answers.provider);
  if (!provider)
    throw new CliError(
      `unknown provider "${answers.provider}"; one of: ${catalog.map((p) => p.name).join(', ')}`,
      2,
    );
  const models: Record<string, string> = {};
  for (const field of provider.settingsFields) {
    const value = settingsValue(provider, field, answers.fields[field]);
    if (value !== undefined) models[field] = value;
  }
  for (const role of ['primary', 'fast', 'fallback'] as const) {
    const value = (
      role === 'primary' ? answers.primary || provider.defaultModel : answers[role]
    )?.trim();
    if (!value) continue;
    models[role] = modelIdFor(catalog, provider, role, value);
  }
  const gateway: Record<string, string> = {};
  if (answers.gatewayApiKey !== undefined)
    gateway.api_key = checkSecret('gateway api key', answers.gatewayApiKey);
  return {
    provider,
    models,
    gateway,
    secretFields: Object.keys(models).filter(isSecretField),
  };
}

/** The plan as a person may read it: secrets shown as `(hidden)`, references as they are. */
export function describePlan(plan: SetupPlan): string[] {
  return Object.entries(plan.models).map(([field, value]) =>
    isSecretField(field) && !value.startsWith('ENV:') && !value.startsWith('op://')
      ? `models.${field} = (hidden)`
      : `models.${field} = ${value}`,
  );
}
