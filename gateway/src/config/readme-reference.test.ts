import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { channelSchema, defaultConfig, KEY_PROVIDERS } from './schema.ts';
import { MINIMAL_CHANNELS } from './testing/minimal-channels.ts';

/** The README's configuration reference must list exactly the schema's keys and defaults. */
describe('README configuration reference', () => {
  it('documents every key with its default, and no key that does not exist', async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    const table =
      readme
        .split('<!-- config-reference:start -->')[1]
        ?.split('<!-- config-reference:end -->')[0] ?? '';
    const documented = new Map<string, string>();
    for (const match of table.matchAll(/^\| `([a-z_.<>]+)` \| `([^`]*)` \|/gm)) {
      const [, key = '', value = ''] = match;
      if (key === 'models.<provider>_api_key') {
        for (const provider of KEY_PROVIDERS) documented.set(`models.${provider}_api_key`, value);
      } else {
        documented.set(key, value);
      }
    }
    const actual = new Map<string, string>();
    for (const [section, values] of Object.entries(defaultConfig())) {
      for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
        actual.set(`${section}.${key}`, JSON.stringify(value));
      }
    }
    // `[channels.<name>]` tables: every key of every channel type, required ones as such.
    for (const minimal of MINIMAL_CHANNELS) {
      const parsed = channelSchema.parse(minimal) as Record<string, unknown>;
      for (const [key, value] of Object.entries(parsed)) {
        actual.set(`channels.<name>.${key}`, key in minimal ? '(required)' : JSON.stringify(value));
      }
    }
    expect([...documented.keys()].sort()).toEqual([...actual.keys()].sort());
    for (const [key, value] of actual) expect(documented.get(key), key).toBe(value);
  });
});
