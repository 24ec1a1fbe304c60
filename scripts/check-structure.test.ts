import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkStructure, describe as describeReport } from './structure/check.ts';

// Each fixture is a small gateway/src tree written to a temporary folder, so nothing of it
// sits in the repository, is type-checked or can reach a build.
const dirs: string[] = [];

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'hearth-structure-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, 'gateway/src', path)), { recursive: true });
    await writeFile(join(root, 'gateway/src', path), text);
  }
  return root;
}

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const sound = {
  'memory/ports.ts': 'export interface Memory { recall(): string }\n',
  'memory/store.ts':
    "import type { Memory } from './ports.ts';\nexport const store: Memory = { recall: () => '' };\n",
  'agent/ports.ts': 'export interface Agent { turn(): string }\n',
  'agent/turn.ts':
    "import type { Memory } from '../memory/ports.ts';\nexport const turn = (m: Memory) => m.recall();\n",
  'agent/turn.test.ts': "import { store } from '../memory/store.ts';\nexport const t = store;\n",
  'config/load.ts': 'export const load = () => ({});\n',
  'gateway.ts':
    "import { turn } from './agent/turn.ts';\nimport type { Channel } from './channels/ports.ts';\n" +
    "import { store } from './memory/store.ts';\nexport const g = (c?: Channel) => c ?? turn(store);\n",
  'testing/fakes/fake-llm.ts':
    "import { load } from '../../config/load.ts';\nexport const fake = load;\n",
  'testing/gateway/test-gateway.ts':
    "import { g } from '../../gateway.ts';\nexport const build = g;\n",
  'channels/testing/kit.ts':
    "import { build } from '../../testing/gateway/test-gateway.ts';\nexport const kit = build;\n",
  'channels/ports.ts': 'export interface Channel { name: string }\n',
};

describe('the structure check', () => {
  // The channel test kit builds a whole gateway, which imports channels: a kit like that is a
  // composition-level builder, not part of its area, so this is no ring.
  it('passes a tree whose areas meet only through ports.ts, with no cycle', async () => {
    const report = await checkStructure(await tree(sound));

    expect(describeReport(report)).toEqual([]);
  });

  it('names a cross-area import of an internal file, a module cycle and an area cycle', async () => {
    const report = await checkStructure(
      await tree({
        ...sound,
        'agent/recall.ts':
          "import { store } from '../memory/store.ts';\nexport const recall = store;\n",
        'providers/a.ts': "import { b } from './b.ts';\nexport const a = () => b();\n",
        'providers/b.ts': "import { a } from './a.ts';\nexport const b = () => a();\n",
        'settings/ports.ts': 'export interface Settings { get(): string }\n',
        'settings/service.ts':
          "import type { Usage } from '../usage/ports.ts';\nexport type S = Usage;\n",
        'usage/ports.ts': 'export interface Usage { total(): number }\n',
        'usage/meter.ts':
          "import type { Settings } from '../settings/ports.ts';\nexport type M = Settings;\n",
        'config/area-aware.ts':
          "import type { Memory } from '../memory/ports.ts';\nexport type C = Memory;\n",
      }),
    );
    const lines = describeReport(report);

    expect(lines).toContain(
      'area-boundary: gateway/src/agent/recall.ts → gateway/src/memory/store.ts',
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^no-cycle: gateway\/src\/providers\/(a|b)\.ts → /),
    );
    expect(lines).toContain('area-cycle: settings, usage');
    expect(lines).toContain(
      'kernel-imports-area: gateway/src/config/area-aware.ts → gateway/src/memory/ports.ts',
    );
  });

  it('counts an area test kit with its area, so fakes that reach an area close a ring', async () => {
    const report = await checkStructure(
      await tree({
        ...sound,
        'testing/fakes/fake-llm.ts':
          "import type { Channel } from '../../channels/ports.ts';\nexport type F = Channel;\n",
        'channels/testing/wire.ts':
          "import type { F } from '../../testing/fakes/fake-llm.ts';\nexport type W = F;\n",
      }),
    );

    expect(describeReport(report)).toEqual(
      expect.arrayContaining([
        'fakes-import-area: gateway/src/testing/fakes/fake-llm.ts → gateway/src/channels/ports.ts',
        'area-cycle: channels, testing/fakes',
      ]),
    );
  });
});
