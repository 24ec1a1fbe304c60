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

export function planSetup(catalog: readonly ProviderChoice[], answers: SetupAnswers): SetupPlan {
  const provider = catalog.find((p) => p.name === answers.provider);
  if (!provider)
    throw new CliError(
      `unknown provider "${answers.provider}"; one of: ${catalog.map((p) => p.name).join(', ')}`,
      2,
    );
  const models: Record<string, string> = {};
  for (const field of provider.settingsFields) {
    const value = answers.fields[field]?.trim() ?? '';
    // The compatible endpoint's key is optional (local servers often need none).
    if (value === '' && field === 'openai_compatible_api_key') continue;
    if (value === '') throw new CliError(`${field} is needed for ${provider.name}`, 2);
    models[field] = checkField(field, value);
  }
  for (const role of ['primary', 'fast', 'fallback'] as const) {
    const value = (
      role === 'primary' ? answers.primary || provider.defaultModel : answers[role]
    )?.trim();
    if (!value) continue;
    if (!MODEL.test(value)) throw new CliError(`--${role}: not a model id: ${value}`, 2);
    models[role] = value;
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
