/**
 * The CLI's skill store (no gateway running): the gateway's built-in tool names are reserved
 * here too, so `hearth hub install` of a package named after one is refused at once (409), as
 * the gateway's install would be, instead of being written and failing at the gateway's next load.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HearthError } from '../../errors.ts';
import { withLocalSkillStore } from './local-skill-store.ts';

const tool = (name: string) => `/** A tool. */\nexport function ${name}() {\n  return 'ok';\n}\n`;

describe('the CLI’s local skill store', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'hearth-local-store-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it.each([
    ['write', 'skill'], // write_skill
    ['memory', 'search'], // memory_search
    ['current', 'time'], // current_time
  ])('refuses %s_%s: a built-in’s name, with a 409 and nothing written', async (name, fn) => {
    const error = await withLocalSkillStore(home, (store) =>
      store.install({ name, kind: 'mjs', source: tool(fn), origin: 'https://hub.example/x.mjs' }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HearthError);
    expect((error as HearthError).code).toBe('conflict');
    expect((error as Error).message).toContain(`${name}_${fn}`);
    expect(await readdir(join(home, 'skills')).catch(() => [])).not.toContain(name);
  });

  it('installs a skill whose tools take no reserved name', async () => {
    const entry = await withLocalSkillStore(home, (store) =>
      store.install({
        name: 'weather',
        kind: 'mjs',
        source: tool('forecast'),
        origin: 'https://hub.example/weather.mjs',
      }),
    );
    expect(entry.name).toBe('weather');
    expect(await readdir(join(home, 'skills'))).toContain('weather');
  });
});
