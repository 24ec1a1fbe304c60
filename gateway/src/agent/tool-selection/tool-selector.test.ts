import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../memory/ports.ts';
import { INSTALLED_TOOLS, manyInstalledTools } from './testing/installed-tools.ts';
import { createToolSelector } from './tool-selector.ts';

const QUERY = 'put on something relaxing';

/** Texts about playing music point one way, everything else the other (a stand-in model). */
function stubEmbedder(state: Embedder['state'] = 'available'): Embedder & { calls: number } {
  const embedder = {
    state,
    detail: null,
    dimensions: 2,
    calls: 0,
    embed(texts: readonly string[]) {
      embedder.calls += 1;
      if (embedder.state === 'unavailable') return Promise.reject(new Error('no model'));
      return Promise.resolve(
        texts.map((text) =>
          text.includes('spotify_play') || text.includes(QUERY)
            ? Float32Array.from([1, 0])
            : Float32Array.from([0, 1]),
        ),
      );
    },
  };
  return embedder;
}

const request = { tools: INSTALLED_TOOLS, message: QUERY, recent: [], maxOffered: 8 };

describe('tool selection with the local embedder', () => {
  it('offers a tool by meaning once its vector is there, embedding 64 tools per turn', async () => {
    const embedder = stubEmbedder();
    const selector = createToolSelector({ embedder });
    expect(selector.ranking()).toBe('embedder');
    // No word of the message is in any tool. The first turn embeds tools 0-63 (spotify_play is
    // one), the next 64-127 (c1_spotify_play); until a tool's vector is there, keywords decide.
    const tools = manyInstalledTools(200);
    const names = async () =>
      (await selector.select({ ...request, tools })).map((tool) => tool.name);
    expect(await names()).toEqual(['spotify_play']);
    expect(await names()).toEqual(['spotify_play', 'c1_spotify_play']);
  });

  it('without a working model, keywords alone decide (and the status says so)', async () => {
    const embedder = stubEmbedder('unavailable');
    const selector = createToolSelector({ embedder });
    expect(selector.ranking()).toBe('keywords');
    expect(await selector.select(request)).toEqual([]);
    expect(embedder.calls).toBe(0);
    const failing = stubEmbedder();
    const fallback = createToolSelector({ embedder: failing });
    failing.embed = () => Promise.reject(new Error('model failed to load'));
    const offered = await fallback.select({ ...request, message: 'pause the music' });
    expect(offered.map((tool) => tool.name)).toContain('spotify_pause');
  });
});
