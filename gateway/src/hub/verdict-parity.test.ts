/**
 * `POST /hub/scan` says what an install would do, because both ask the same function
 * (`createPackageJudge`: layer 1 and the scanner). Over the whole scanner corpus: the scan is
 * flagged exactly when an install without `force` is refused, and an install's recorded scan
 * equals the scan's findings and descriptions.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { createPackageJudge, createSkillValidator, scanPackage } from '../skills/ports.ts';
import { corpusSamples } from '../skills/scanner/testing/corpus.ts';
import { DEFAULT_FETCH_LIMITS } from './fetch-package.ts';
import { createHubService } from './hub-service.ts';
import { validationError } from '../errors.ts';
import type { InstalledSkill, SkillCatalog } from '../skills/ports.ts';

const validate = createSkillValidator({ timeoutMs: 20_000 });
const judge = createPackageJudge({ validate, scan: scanPackage });

/** A catalog in memory that validates like the skills store: layer 1 refuses, nothing overrides. */
function validatingCatalog(): SkillCatalog {
  const skills = new Map<string, InstalledSkill>();
  return {
    list: () => [...skills.values()],
    get: (name) => skills.get(name),
    async install(input) {
      const result = await validate(input.source, input.kind);
      if (!result.ok)
        throw validationError(
          `Skill code rejected: ${result.problems.map((p) => p.construct).join(', ')}`,
        );
      const skill: InstalledSkill = {
        name: input.name,
        kind: input.kind,
        state: 'active',
        tools: result.tools.map((t) => t.name),
        load_error: null,
        origin: input.origin,
        version: input.version ?? '0.0.0',
        tags: input.tags ?? [],
      };
      skills.set(input.name, skill);
      return skill;
    },
    setEnabled: () => Promise.reject(new Error('not used')),
    remove: (name) => Promise.resolve(skills.delete(name)),
    reload: () => Promise.resolve([...skills.values()]),
  };
}

function hub() {
  const catalog = validatingCatalog();
  return createHubService({
    catalog: () => catalog,
    judge,
    network: {
      fetch: () => Promise.reject(new Error('no network in this test')),
      resolve: () => Promise.reject(new Error('no network in this test')),
      allowPrivateHosts: false,
    },
    limits: DEFAULT_FETCH_LIMITS,
    logger: silentLogger(),
  });
}

const dataUrl = (code: string) => `data:text/plain;base64,${Buffer.from(code).toString('base64')}`;

/** Constructs layer 1 refuses and, before the shared verdict, the scan called unflagged. */
const LAYER1_ONLY = {
  'process.getBuiltinModule': `export function x() {\n  return process.getBuiltinModule('child_process');\n}\n`,
  'Reflect.construct(Function, …)': `export function x() {\n  return Reflect.construct(Function, ['return 1'])();\n}\n`,
  'the AsyncFunction constructor': `const AsyncFunction = (async () => {}).constructor;\nexport function x() {\n  return new AsyncFunction('return 1')();\n}\n`,
};

describe('POST /hub/scan and the install path reach one verdict', () => {
  it.each(Object.entries(LAYER1_ONLY))('%s scans as flagged and refused', async (_name, code) => {
    const verdict = await hub().scan(code, 'mjs');
    expect(verdict).toMatchObject({ flagged: true, refused: true });
    expect(verdict.findings.some((f) => f.rule === 'layer1.blocked')).toBe(true);
  });

  it('agrees with an install on every sample of the corpus', async () => {
    const samples = [...corpusSamples('malicious'), ...corpusSamples('benign')];
    expect(samples.length).toBeGreaterThan(300);
    const disagreements: string[] = [];
    let n = 0;
    for (const sample of samples) {
      const service = hub();
      const name = `pkg-${n++}`;
      const scanned = await service.scan(sample.source, sample.kind);
      const url = dataUrl(sample.source);
      const plain = await service
        .install({ url, name, kind: sample.kind })
        .then((installed) => ({ installed }))
        .catch((error: Error) => ({ error }));
      if ('installed' in plain) {
        if (scanned.flagged)
          disagreements.push(`${sample.file}: installed though the scan flags it`);
        expect(plain.installed.scan).toEqual({
          flagged: scanned.flagged,
          findings: scanned.findings,
        });
        expect(plain.installed.tool_descriptions).toEqual(scanned.tool_descriptions);
        continue;
      }
      if (!scanned.flagged)
        disagreements.push(
          `${sample.file}: refused though the scan passes it: ${plain.error.message}`,
        );
      if (scanned.refused) continue;
      // Flagged by the scanner only: force installs it, and the install records the same scan.
      const forced = await service.install({
        url,
        name: `${name}-forced`,
        kind: sample.kind,
        force: true,
      });
      expect(forced.forced).toBe(true);
      expect(forced.scan).toEqual({ flagged: scanned.flagged, findings: scanned.findings });
    }
    expect(disagreements).toEqual([]);
  }, 300_000);
});
