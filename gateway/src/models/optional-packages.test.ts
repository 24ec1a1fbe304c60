import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isHearthError } from '../errors.ts';
import {
  featureOffReason,
  featureStates,
  importOptional,
  missingPackages,
  OPTIONAL_FEATURES,
} from './optional-packages.ts';

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  hearthFeatures: Record<string, { packages: string[] }>;
};

describe('optional features', () => {
  it('match gateway/package.json: hearthFeatures, optional peers, never plain dependencies', () => {
    expect(
      Object.fromEntries(
        Object.entries(manifest.hearthFeatures).map(([name, feature]) => [name, feature.packages]),
      ),
    ).toEqual(OPTIONAL_FEATURES);
    for (const name of new Set(Object.values(OPTIONAL_FEATURES).flat())) {
      expect(manifest.peerDependencies[name], name).toBeDefined();
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      // A plain dependency would put it back into the default install.
      expect(manifest.dependencies[name], name).toBeUndefined();
    }
  });

  it('status says on, or off with the command that turns the feature on', () => {
    for (const [feature, state] of Object.entries(featureStates())) {
      const missing = missingPackages(feature as keyof typeof OPTIONAL_FEATURES);
      if (missing.length === 0) {
        expect(state).toBe('on');
        expect(featureOffReason(feature as keyof typeof OPTIONAL_FEATURES)).toBeNull();
      } else {
        expect(state).toBe(`off (hearth features add ${feature}; missing ${missing.join(', ')})`);
        expect(featureOffReason(feature as keyof typeof OPTIONAL_FEATURES)).toContain(
          `turn it on with \`hearth features add ${feature}\``,
        );
      }
    }
  });

  it.runIf(missingPackages('voice').length > 0)(
    'importing a missing package fails closed: 503 naming the command (this install has no voice)',
    async () => {
      const missing = missingPackages('voice')[0]!;
      const error = await importOptional(missing, 'voice').catch((caught: unknown) => caught);
      expect(isHearthError(error) && error.code).toBe('unavailable');
      expect((error as Error).message).toContain('`hearth features add voice`');
    },
  );

  it.runIf(missingPackages('voice').length === 0)(
    'an installed package imports (this install has voice)',
    async () => {
      const ort = await importOptional<{ InferenceSession: unknown }>('onnxruntime-node', 'voice');
      expect(ort.InferenceSession).toBeDefined();
    },
  );
});
