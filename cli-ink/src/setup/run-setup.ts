import { dirname } from 'node:path';
import {
  createOnePasswordReader,
  defaultConfig,
  ensureStateDir,
  PROVIDERS,
  providerStatuses,
  resolveSecret,
  updateConfigFile,
} from '@hearth/gateway';
import { CliError, errorMessage } from '../cli-error.ts';
import { readRawConfig } from '../config-file.ts';
import type { CommandContext } from '../deps.ts';
import { liveCheck, type LiveCheckResult } from './live-check.ts';
import { createPrompter, type Prompter } from './prompter.ts';
import {
  describePlan,
  isSecretField,
  modelIdFor,
  planSetup,
  settingsValue,
  type ProviderChoice,
  type SetupAnswers,
  type SetupPlan,
} from './setup-plan.ts';
import { newGatewayKey } from '../secret-input.ts';

/** The base URL fields a provider fills in by itself when they are empty (Ollama's local URL). */
function baseUrlDefaults(provider: (typeof PROVIDERS)[number]): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const field of provider.settingsFields) {
    if (!field.endsWith('_base_url')) continue;
    const url = provider.baseURL({ ...defaultConfig().models, [field]: '' });
    if (url !== '') defaults[field] = url;
  }
  return defaults;
}

/** The 19 providers as setup offers them (the gateway's catalog). */
export const CATALOG: readonly ProviderChoice[] = PROVIDERS.map((p) => ({
  name: p.name,
  settingsFields: p.settingsFields,
  defaultModel: p.defaultModel,
  prefixes: p.prefixes,
  // A base URL the provider has without configuration (Ollama's http://127.0.0.1:11434).
  fieldDefaults: baseUrlDefaults(p),
  liveCheck: p.liveCheck,
}));

export interface SetupFlags {
  provider?: string;
  /** Provider settings given on the command line, by field (`--key`, `--base-url`, …). */
  fields: Record<string, string>;
  primary?: string;
  fast?: string;
  fallback?: string;
  /** `--gateway-key generate|<key>`: set gateway.api_key. */
  gatewayKey?: string;
  skipCheck?: boolean;
  json?: boolean;
}

export interface SetupResult {
  config_path: string;
  provider: string;
  written: string[];
  live_check: LiveCheckResult | { skipped: true };
  gateway_api_key_set: boolean;
}

/** Resolves ENV:/op:// values of the plan (for the live check only; the file keeps them). */
async function resolvedModels(
  ctx: CommandContext,
  plan: SetupPlan,
): Promise<Record<string, string>> {
  const { env } = ctx.deps;
  const current = (await readRawConfig(ctx.configPath())).models as unknown as Record<
    string,
    string
  >;
  const merged: Record<string, string> = { ...current };
  for (const [field, value] of Object.entries(plan.models)) {
    merged[field] = isSecretField(field)
      ? await resolveSecret(`models.${field}`, value, {
          env: env.variables,
          readOnePassword: createOnePasswordReader(env.variables),
        })
      : value;
  }
  return merged;
}

async function check(ctx: CommandContext, plan: SetupPlan): Promise<LiveCheckResult> {
  try {
    return await liveCheck(plan.provider.name, await resolvedModels(ctx, plan), {
      fetch: ctx.deps.fetch,
      statuses: (models, fetch) => providerStatuses(models as never, true, { fetch }),
    });
  } catch (error) {
    return { reachable: false, detail: errorMessage(error) };
  }
}

async function write(ctx: CommandContext, plan: SetupPlan): Promise<void> {
  const path = ctx.configPath();
  if (dirname(path) === ctx.deps.env.home) await ensureStateDir(ctx.deps.env.home);
  await updateConfigFile(path, 'models', plan.models);
  if (Object.keys(plan.gateway).length > 0) await updateConfigFile(path, 'gateway', plan.gateway);
}

/** `hearth setup --provider …`: no questions; exit 1 when the live check fails (nothing written). */
export async function runSetupWithFlags(ctx: CommandContext, flags: SetupFlags): Promise<void> {
  if (!flags.provider)
    throw new CliError('--provider is needed without a terminal (or run hearth setup in one)', 2);
  const generated = flags.gatewayKey === 'generate' ? newGatewayKey() : undefined;
  const plan = planSetup(CATALOG, {
    provider: flags.provider,
    fields: flags.fields,
    primary: flags.primary,
    fast: flags.fast,
    fallback: flags.fallback,
    gatewayApiKey: generated ?? flags.gatewayKey,
  });
  await finish(ctx, plan, flags.skipCheck ? undefined : await check(ctx, plan), {
    json: flags.json,
    generated,
  });
}

async function finish(
  ctx: CommandContext,
  plan: SetupPlan,
  checked: LiveCheckResult | undefined,
  options: { json?: boolean; generated?: string },
): Promise<void> {
  const { output } = ctx.deps;
  if (checked?.reachable === false) {
    throw new CliError(
      `live check of ${plan.provider.name} failed: ${checked.detail}. Nothing was written (--skip-check writes anyway).`,
    );
  }
  await write(ctx, plan);
  const result: SetupResult = {
    config_path: ctx.configPath(),
    provider: plan.provider.name,
    written: [
      ...Object.keys(plan.models).map((f) => `models.${f}`),
      ...Object.keys(plan.gateway).map((f) => `gateway.${f}`),
    ],
    live_check: checked ?? { skipped: true },
    gateway_api_key_set: plan.gateway.api_key !== undefined,
  };
  if (options.json) {
    output.out(
      JSON.stringify(
        options.generated ? { ...result, gateway_api_key: options.generated } : result,
        null,
        2,
      ),
    );
    return;
  }
  output.out(
    [
      `Wrote ${result.config_path}:`,
      ...describePlan(plan).map((line) => `  ${line}`),
      ...(plan.gateway.api_key ? ['  gateway.api_key = (hidden)'] : []),
      checked === undefined
        ? 'Live check: skipped.'
        : checked.reachable === null
          ? `Live check: not available for ${plan.provider.name} (${checked.detail}).`
          : `Live check: ${plan.provider.name} is reachable.`,
      ...(options.generated ? [`Gateway API key (shown once): ${options.generated}`] : []),
      'Restart the gateway to use it (hearth stop; hearth start).',
    ].join('\n'),
  );
}

/** Interactive `hearth setup` (also what the dashboard runs when no provider works). */
export async function runSetupInteractive(
  ctx: CommandContext,
  flags: Partial<SetupFlags> = {},
): Promise<void> {
  const { deps } = ctx;
  const prompter = createPrompter(deps.input, deps.promptOutput, deps.isTTY);
  try {
    const answers = await ask(prompter, flags);
    let plan = planSetup(CATALOG, answers);
    const say = (text: string) => void deps.promptOutput.write(`${text}\n`);
    say(`Checking ${plan.provider.name}…`);
    let checked: LiveCheckResult | undefined = await check(ctx, plan);
    if (checked.reachable === false) {
      say(`The live check failed: ${checked.detail}`);
      // Everything asked so far would be lost, so only an explicit "n" (or input that has
      // ended) ends it here; an empty answer is asked again.
      const anyway = await askUntil(
        prompter,
        () => prompter.ask('Write the configuration anyway? [y/n] '),
        (answer) => {
          if (/^y(es)?$/i.test(answer)) return true;
          if (/^no?$/i.test(answer)) return false;
          throw new CliError('answer y (write it) or n (write nothing)', 2);
        },
      ).catch((error: unknown) => {
        if (error instanceof CliError && prompter.ended()) return false;
        throw error;
      });
      if (!anyway) throw new CliError('Nothing was written.');
      checked = undefined;
    }
    const remote = await prompter.ask(
      'Set an API key so that other machines may reach this gateway? [y/N] ',
    );
    let generated: string | undefined;
    if (/^y(es)?$/i.test(remote)) {
      generated = newGatewayKey();
      plan = { ...plan, gateway: { api_key: generated } };
    }
    await finish(ctx, plan, checked, { generated, json: flags.json });
  } finally {
    prompter.close();
  }
}

/**
 * Asks until `take` accepts the answer: a wrong or missing value is said at once and asked
 * again, never accepted here and refused at the end. When the input has ended there is nobody
 * to ask again, so the reason is the error (nothing is written).
 */
async function askUntil<T>(
  prompter: Prompter,
  question: () => Promise<string>,
  take: (answer: string) => T,
): Promise<T> {
  for (;;) {
    const answer = await question();
    try {
      return take(answer);
    } catch (error) {
      if (!(error instanceof CliError) || prompter.ended()) throw error;
      prompter.say(`${error.message.replace(/^--\w+: /, '')}. Try again.`);
    }
  }
}

async function ask(prompter: Prompter, flags: Partial<SetupFlags>): Promise<SetupAnswers> {
  let choice = CATALOG.find((p) => p.name === flags.provider);
  if (flags.provider !== undefined && !choice)
    throw new CliError(`unknown provider "${flags.provider}"`, 2);
  if (!choice) {
    const menu = CATALOG.map((p, i) => `${String(i + 1).padStart(2)}. ${p.name}`).join('\n');
    choice = await askUntil(
      prompter,
      () => prompter.ask(`Which provider?\n${menu}\nNumber or name: `),
      (answer) => {
        const picked = /^\d+$/.test(answer)
          ? CATALOG[Number(answer) - 1]
          : CATALOG.find((p) => p.name === answer);
        if (!picked)
          throw new CliError(
            `unknown provider "${answer}": a number from 1 to ${CATALOG.length} or a name`,
            2,
          );
        return picked;
      },
    );
  }
  const provider = choice;
  const fields: Record<string, string> = { ...flags.fields };
  for (const field of provider.settingsFields) {
    if (fields[field]) continue;
    const preset = provider.fieldDefaults[field];
    const value = await askUntil(
      prompter,
      () =>
        isSecretField(field)
          ? prompter.askSecret(
              `${field} (the key, or ENV:VAR, or op://vault/item/field; not shown): `,
            )
          : prompter.ask(preset ? `${field} [${preset}]: ` : `${field}: `),
      (answer) => settingsValue(provider, field, answer),
    );
    if (value !== undefined) fields[field] = value;
  }
  let primary = flags.primary;
  if (primary === undefined) {
    let typed = '';
    primary = await askUntil(
      prompter,
      async () => (typed = await prompter.ask(`Model [${provider.defaultModel}]: `)),
      (answer) => modelIdFor(CATALOG, provider, 'primary', answer || provider.defaultModel),
    );
    if (typed !== '' && typed !== primary)
      prompter.say(
        `The model is written as ${primary}: the gateway picks the provider by that prefix.`,
      );
  }
  return { provider: provider.name, fields, primary, fast: flags.fast, fallback: flags.fallback };
}
