import { z } from 'zod';
import { PRICES_PER_MILLION } from '../usage/ports.ts';
import { OTHER_LABEL } from '../observability/labels.ts';
import { providerSpec, resolveModel, type ModelsConfig } from './catalog.ts';

/** Longest accepted model id, and its characters (`provider/name:tag@version`). */
export const MODEL_ID_PATTERN = /^[A-Za-z0-9][\w.:/@+-]{0,199}$/;

const CONFIGURED_ROLES = ['primary', 'fallback', 'fast', 'local'] as const;

/**
 * A model id as a metric label: kept when the model is configured in `[models]`, is its
 * provider's default, or is priced by exactly that name in the pricing table; `other` otherwise
 * (an id a client made up still reaches the provider, which answers for it).
 */
export function modelLabel(modelId: string, models: ModelsConfig): string {
  for (const role of CONFIGURED_ROLES) if (String(models[role]).trim() === modelId) return modelId;
  const resolved = resolveModel(modelId);
  if (!resolved) return OTHER_LABEL;
  if (providerSpec(resolved.provider).defaultModel === resolved.nativeId) return modelId;
  const priced = PRICES_PER_MILLION[resolved.provider];
  return priced && Object.hasOwn(priced, resolved.nativeId) ? modelId : OTHER_LABEL;
}

/** A model id a client names in a request (REST `model`, `/ws/chat` `model`). */
export const modelIdSchema = z
  .string()
  .regex(
    MODEL_ID_PATTERN,
    'must be 1 to 200 characters: letters, digits and _ . : / @ + - (starting with a letter or digit)',
  );
