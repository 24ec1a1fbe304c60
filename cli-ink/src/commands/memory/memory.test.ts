import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiResponse } from '@hearth/client';
import {
  createTransformersEmbedder,
  DEFAULT_EMBEDDING_MODEL_ID,
  openDatabase,
  silentLogger,
  type Database,
  type MemoryEntry,
  type SemanticMatch,
} from '@hearth/gateway';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeTinyModel } from '../../../../gateway/src/memory/embedder/testing/tiny-model.ts';
import { createFakeLlmServer } from '../../../../gateway/src/testing/fakes/fake-llm/server.ts';
import {
  startChatTestBed,
  type ChatTestBed,
} from '../../../../gateway/src/testing/gateway/chat-gateway.ts';
import { createHarness, freePort, type Harness } from '../../testing/cli-harness.ts';

const DAY = 86_400;
/** The seeded rows were written 30 days ago (epoch seconds, on a whole minute). */
const CREATED = Math.floor(Date.now() / 1000 / 60) * 60 - 30 * DAY;

/** How `hearth memory search` prints one entry. */
const line = (entry: MemoryEntry): string => {
  const when = new Date(entry.created_at * 1000).toISOString().slice(0, 16).replace('T', ' ');
  const tags = entry.tags.length ? ` [${entry.tags.join(', ')}]` : '';
  return `#${entry.id} ${when} ${entry.session_id} (${entry.type}, importance ${entry.importance_score})${tags}\n    ${entry.content}`;
};

describe('hearth memory on the local store (no gateway answering)', () => {
  let h: Harness;
  let port: number;
  let rows: MemoryEntry[];

  /** The store the CLI works on: {home}/memory.db, opened the way the gateway opens it. */
  async function withStore<T>(work: (db: Database) => Promise<T>): Promise<T> {
    const db = await openDatabase(join(h.home, 'memory.db'));
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  }

  const noGatewayNote = () => `note: no gateway answering at http://127.0.0.1:${port}`;

  beforeEach(async () => {
    h = await createHarness();
    port = await freePort();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${port}\n`);
    rows = await withStore(async (db) => [
      await db.memory.insert({
        session_id: 'ada',
        content: 'Ada drinks green tea every morning',
        importance_score: 0.8,
        tags: ['food'],
        created_at: CREATED,
      }),
      await db.memory.insert({
        session_id: 'ada',
        content: 'Ada said hi',
        importance_score: 0.1,
        created_at: CREATED + 60,
      }),
      await db.memory.insert({
        session_id: 'bob',
        content: 'Bob prefers black tea',
        importance_score: 0.6,
        type: 'note',
        created_at: CREATED + 120,
      }),
    ]);
  });
  afterEach(() => h.cleanup());

  it('search prints the matches, newest first, with a note that it works on the store directly', async () => {
    const result = await h.run(['memory', 'search', 'TEA']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(noGatewayNote());
    expect(result.stderr).toContain('working on the memory store directly.');
    expect(result.stdout).toBe(`${line(rows[2]!)}\n${line(rows[0]!)}\n`);
    expect(result.stdout).toMatch(
      /^#3 \d{4}-\d\d-\d\d \d\d:\d\d bob \(note, importance 0\.6\)\n {4}Bob prefers black tea\n#1 .* ada \(turn, importance 0\.8\) \[food\]\n {4}Ada drinks green tea every morning\n$/,
    );

    const oneSession = await h.run(['memory', 'search', 'tea', '--session', 'ada', '--json']);
    expect(JSON.parse(oneSession.stdout)).toEqual([rows[0]]);

    const none = await h.run(['memory', 'search', 'coffee']);
    expect(none.stdout).toBe('No memories match.\n');
  });

  it('prune removes what is below the threshold', async () => {
    const result = await h.run(['memory', 'prune', '--threshold', '0.5']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Removed 1 memory.\n');
    expect(await withStore((db) => db.memory.list({ limit: 10 }))).toEqual([rows[2], rows[0]]);

    const missing = await h.run(['memory', 'prune']);
    expect(missing).toMatchObject({
      code: 2,
      stderr: 'hearth: give --days, --threshold or both\n',
    });
  });

  it('prune --days removes only rows older than that', async () => {
    expect((await h.run(['memory', 'prune', '--days', '31'])).stdout).toBe('Removed 0 memories.\n');
    expect(await withStore((db) => db.memory.count())).toBe(3);
    expect((await h.run(['memory', 'prune', '--days', '29'])).stdout).toBe('Removed 3 memories.\n');
    expect(await withStore((db) => db.memory.count())).toBe(0);
  });

  it('edit changes content and importance and prints the entry', async () => {
    const result = await h.run([
      'memory',
      'edit',
      String(rows[0]!.id),
      '--content',
      'Ada drinks oolong tea',
      '--importance',
      '0.9',
    ]);
    expect(result.code).toBe(0);
    const stored = await withStore((db) => db.memory.get(rows[0]!.id));
    expect(stored).toMatchObject({ content: 'Ada drinks oolong tea', importance_score: 0.9 });
    expect(result.stdout).toBe(`${line(stored!)}\n`);
  });

  it('edit refuses a bad id, an unknown id, no changes and an out-of-range importance', async () => {
    expect(await h.run(['memory', 'edit', 'abc', '--importance', '0.5'])).toMatchObject({
      code: 2,
      stderr: 'hearth: not a memory id: abc\n',
    });
    expect(await h.run(['memory', 'edit', '1'])).toMatchObject({
      code: 2,
      stderr: 'hearth: give --content, --importance or both\n',
    });
    const unknown = await h.run(['memory', 'edit', '999', '--importance', '0.5']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('hearth: Memory entry 999 not found');
    const range = await h.run(['memory', 'edit', '1', '--importance', '1.5']);
    expect(range.code).toBe(1);
    expect(range.stderr).toContain('importance_score must be a number from 0 to 1 (got 1.5)');
    expect(await withStore((db) => db.memory.get(1))).toEqual(rows[0]);
  });

  it('clear --session --yes deletes that session only', async () => {
    const result = await h.run(['memory', 'clear', '--session', 'ada', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Deleted 2 memories.\n');
    expect(await withStore((db) => db.memory.list({ limit: 10 }))).toEqual([rows[2]]);
  });

  it('clear asks first, and "n" deletes nothing', async () => {
    const all = await h.run(['memory', 'clear'], {}, ['n\n']);
    expect(all).toMatchObject({ code: 0, stdout: 'Nothing deleted.\n' });
    const one = await h.run(['memory', 'clear', '--session', 'ada'], {}, ['n\n']);
    expect(one).toMatchObject({ code: 0, stdout: 'Nothing deleted.\n' });
    // No answer at all (input closed) is a no too.
    expect((await h.run(['memory', 'clear'])).stdout).toBe('Nothing deleted.\n');
    expect(await withStore((db) => db.memory.count())).toBe(3);

    const yes = await h.run(['memory', 'clear'], {}, ['y\n']);
    expect(yes.stdout).toBe('Deleted 3 memories.\n');
    expect(await withStore((db) => db.memory.count())).toBe(0);
  });

  it('clear (everything) refuses without a gateway while a tier lives outside it, and deletes nothing', async () => {
    await writeFile(
      join(h.home, 'config.toml'),
      `[gateway]\nport = ${port}\n\n[memory]\ncache_url = "redis://127.0.0.1:9"\n`,
    );
    const result = await h.run(['memory', 'clear', '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'hearth: nothing was deleted: the short-term cache at redis://127.0.0.1:9 is emptied by the gateway, and none answers; start it (hearth start) and run this again\n',
    );
    expect(await withStore((db) => db.memory.count())).toBe(3);
  });

  it('search --semantic without the embedding model says what is missing and how to get it (exit 1)', async () => {
    const result = await h.run(['memory', 'search', 'tea', '--semantic']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `hearth: semantic search needs the local embedding model, which is not available: embedding model Xenova/all-MiniLM-L6-v2 not found: folder ${join(h.home, 'models', 'Xenova', 'all-MiniLM-L6-v2')} does not exist; run \`hearth memory models pull\` to fetch it\n`,
    );
  });

  it('search --semantic with the model on disk ranks the stored rows by meaning (the real model pipeline)', async () => {
    const modelDir = join(h.home, 'models');
    await writeTinyModel({ modelDir, modelId: DEFAULT_EMBEDDING_MODEL_ID });
    const embedder = createTransformersEmbedder({ modelDir, logger: silentLogger() });
    const texts = [
      'the cat sat on the mat',
      'quantum physics lecture notes',
      'the dog ran in the park',
    ];
    const vectors = await embedder.embed(texts);
    await embedder.close();
    const [cat, physics, dog] = await withStore(async (db) => {
      await db.memory.removeAll();
      const stored = [];
      for (const [i, content] of texts.entries())
        stored.push(
          await db.memory.insert({
            session_id: i === 1 ? 'bob' : 'ada',
            content,
            importance_score: 0.5,
            embedding: vectors[i],
          }),
        );
      // A row embedded by some other model (another width): not comparable.
      await db.memory.insert({
        session_id: 'ada',
        content: 'the cat sat on the rug',
        importance_score: 0.5,
        embedding: new Float32Array(8).fill(0.25),
      });
      return stored;
    });

    const result = await h.run(['memory', 'search', 'a cat on a mat', '--semantic', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('working on the memory store directly.');
    expect(result.stderr).toContain(
      'note: 1 memory has an embedding of another model and was not compared.',
    );
    const found = JSON.parse(result.stdout) as SemanticMatch[];
    expect(found[0]).toMatchObject({ id: cat!.id, content: 'the cat sat on the mat' });
    expect(found[0]!.similarity).toBeGreaterThan(0.5);
    for (const match of found) expect(match.similarity).toBeGreaterThanOrEqual(0.1);
    const scores = found.map((m) => m.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const physicsRank = found.findIndex((m) => m.id === physics!.id);
    expect(physicsRank === -1 || physicsRank > 0).toBe(true);

    const bob = await h.run([
      'memory',
      'search',
      'physics lecture',
      '--semantic',
      '--session',
      'bob',
      '--json',
    ]);
    expect((JSON.parse(bob.stdout) as SemanticMatch[]).map((m) => m.id)).toEqual([physics!.id]);

    const text = await h.run(['memory', 'search', 'dog in the park', '--semantic', '--limit', '1']);
    expect(text.stdout).toMatch(
      new RegExp(
        `^#${dog!.id} .* ada \\(turn, importance 0\\.5, similarity 0\\.\\d\\d\\)\\n {4}the dog ran in the park\\n$`,
      ),
    );
  });

  it('archive condenses an inactive session with the configured model', async () => {
    const fake = await createFakeLlmServer();
    try {
      await writeFile(
        join(h.home, 'config.toml'),
        `[gateway]\nport = ${port}\n\n[models]\nprimary = "ollama/llama3.2"\n` +
          `ollama_base_url = "${fake.url}"\n`,
      );
      fake.reply({ text: 'Ada drinks green tea and once said hi.' });
      const result = await h.run(['memory', 'archive', '--days', '29']);
      expect(result).toMatchObject({
        code: 0,
        // bob has a single memory: nothing to condense.
        stdout: 'Archived 1 session(s): 2 memories condensed.\n',
      });
      expect(fake.requests).toHaveLength(1);
      expect(JSON.stringify(fake.requests[0]?.body)).toContain(
        'Ada drinks green tea every morning\\n---\\nAda said hi',
      );
      const ada = await withStore((db) => db.memory.list({ session_id: 'ada', limit: 10 }));
      expect(ada).toEqual([
        expect.objectContaining({
          content: 'Ada drinks green tea and once said hi.',
          type: 'archive',
          importance_score: 0.8,
          tags: ['food'],
        }),
      ]);
      expect(await withStore((db) => db.memory.list({ session_id: 'bob', limit: 10 }))).toEqual([
        rows[2],
      ]);
    } finally {
      await fake.close();
    }
  });

  it('archive with no session inactive for long enough condenses nothing', async () => {
    // The seeded sessions were last active 30 days ago: not inactive for 31.
    const result = await h.run(['memory', 'archive', '--days', '31']);
    expect(result).toMatchObject({
      code: 0,
      stdout: 'Archived 0 session(s): 0 memories condensed.\n',
    });
    expect(await withStore((db) => db.memory.count())).toBe(3);
  });
});

describe('hearth memory against a running gateway (REST)', () => {
  let h: Harness;
  let base: string;
  let other: string;

  async function post(content: string, session_id: string, importance = 0.5): Promise<MemoryEntry> {
    const res = await fetch(`${base}/api/v1/memory`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content, session_id, importance }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as ApiResponse<'/memory', 'POST'>;
  }

  async function entries(query = ''): Promise<MemoryEntry[]> {
    const res = await fetch(`${base}/api/v1/memory?limit=1000${query}`);
    return ((await res.json()) as ApiResponse<'/memory'>).entries;
  }

  beforeAll(async () => {
    h = await createHarness();
    await writeFile(join(h.home, 'config.toml'), '[gateway]\nport = 0\n');
    const started = await h.run(['start']);
    expect(started.code).toBe(0);
    const { port } = h.gateways[0]!.address;
    base = `http://127.0.0.1:${port}`;
    other = join(h.home, 'client.toml');
    await writeFile(other, `[gateway]\nport = ${port}\n`);
  });
  afterAll(() => h.cleanup());

  /** Runs a memory command against the gateway; a REST answer prints no fallback note. */
  async function cli(args: string[], input?: string[]) {
    const result = await h.run(['-c', other, 'memory', ...args], {}, input);
    expect(result.stderr).not.toContain('note:');
    return result;
  }

  it('search goes through GET /memory/search', async () => {
    const row = await post('Grace keeps a lighthouse journal', 'grace');
    await post('Grace likes the sea', 'grace');
    const result = await cli(['search', 'lighthouse']);
    expect(result).toMatchObject({ code: 0, stdout: `${line(row)}\n` });
    const json = await cli(['search', 'grace', '--session', 'grace', '--limit', '1', '--json']);
    expect((JSON.parse(json.stdout) as MemoryEntry[]).map((e) => e.content)).toEqual([
      'Grace likes the sea',
    ]);
  });

  it('search --semantic asks the gateway, which says clearly that it has no embedding model', async () => {
    const result = await h.run(['-c', other, 'memory', 'search', 'lighthouse', '--semantic']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^hearth: semantic search needs the local embedding model, which is not available: embedding model Xenova\/all-MiniLM-L6-v2 not found: .*run `hearth memory models pull` to fetch it\n$/,
    );
  });

  it('edit goes through PATCH and reports the gateway’s validation message', async () => {
    const row = await post('Grace sails on Sundays', 'grace-edit');
    const result = await cli(['edit', String(row.id), '--content', 'Grace sails on Saturdays']);
    expect(result.code).toBe(0);
    const [updated] = await entries('&session_id=grace-edit');
    expect(updated).toMatchObject({ id: row.id, content: 'Grace sails on Saturdays' });
    expect(result.stdout).toBe(`${line(updated!)}\n`);

    const range = await h.run([
      '-c',
      other,
      'memory',
      'edit',
      String(row.id),
      '--importance',
      '1.5',
    ]);
    expect(range).toMatchObject({
      code: 1,
      stderr: 'hearth: body.importance: must be between 0 and 1\n',
    });
    const unknown = await h.run(['-c', other, 'memory', 'edit', '999999', '--importance', '0.5']);
    expect(unknown).toMatchObject({ code: 1, stderr: 'hearth: Memory entry 999999 not found\n' });
  });

  it('prune goes through POST /memory/prune', async () => {
    const low = await post('Grace said ok', 'grace-prune', 0.01);
    const result = await cli(['prune', '--threshold', '0.02']);
    expect(result).toMatchObject({ code: 0, stdout: 'Removed 1 memory.\n' });
    expect((await entries()).some((e) => e.id === low.id)).toBe(false);
  });

  it('clear --session --yes goes through DELETE /memory/session/{id}; without --yes "n" keeps everything', async () => {
    await post('Grace has a cat', 'grace-clear');
    await post('Grace has a dog', 'grace-clear');
    const declined = await cli(['clear', '--session', 'grace-clear'], ['n\n']);
    expect(declined.stdout).toBe('Nothing deleted.\n');
    expect(await entries('&session_id=grace-clear')).toHaveLength(2);

    const result = await cli(['clear', '--session', 'grace-clear', '--yes']);
    expect(result).toMatchObject({ code: 0, stdout: 'Deleted 2 memories.\n' });
    expect(await entries('&session_id=grace-clear')).toEqual([]);
    expect((await entries()).length).toBeGreaterThan(0);
  });

  it('archive with no inactive sessions condenses nothing', async () => {
    const before = await entries();
    const result = await h.run(['-c', other, 'memory', 'archive']);
    expect(result).toMatchObject({
      code: 0,
      stdout: 'Archived 0 session(s): 0 memories condensed.\n',
    });
    expect(await entries()).toEqual(before);
  });
});

describe('hearth memory against a running gateway with an embedding model and a chat model', () => {
  let bed: ChatTestBed;
  let h: Harness;

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    bed = await startChatTestBed();
    h = await createHarness();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${bed.gw.port}\n`);
  }, 60_000);
  afterAll(async () => {
    await h.cleanup();
    await bed.close();
  });

  it('search --semantic goes through GET /memory/semantic and shows each match’s similarity', async () => {
    const row = await api<MemoryEntry>('POST', '/memory', {
      content: 'Grace keeps a lighthouse journal by the sea',
      session_id: 'grace',
    });
    await api('POST', '/memory', { content: 'Bob repairs bicycles', session_id: 'bob' });
    const result = await h.run(['memory', 'search', 'the lighthouse by the sea', '--semantic']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^#${row.id} .* grace \\(note, importance 0\\.5, similarity 0\\.\\d\\d\\)\\n {4}Grace keeps a lighthouse journal by the sea\\n$`,
      ),
    );
  });

  it('clear --yes empties every tier of the gateway over REST, short-term included', async () => {
    bed.fake.reply({ text: 'Hello Grace!' });
    await api('POST', '/chat', { message: 'hi', session_id: 'grace-chat' });
    const before = (await api<{ count: number }>('GET', '/memory/entries?limit=1000')).count;
    expect(before).toBeGreaterThan(0);

    const result = await h.run(['memory', 'clear', '--yes']);
    expect(result).toEqual({
      code: 0,
      stdout: `Deleted ${before + 2} memories: ${before} long-term (with their vectors), 2 short-term.\n`,
      stderr: '',
    });
    expect(await api('GET', '/memory/entries?limit=1000')).toEqual({ entries: [], count: 0 });
    const again = await h.run(['memory', 'clear', '--yes', '--json']);
    expect(JSON.parse(again.stdout)).toEqual({ deleted: 0, long_term: 0, short_term: 0 });
    const search = await h.run(['memory', 'search', 'the lighthouse by the sea', '--semantic']);
    expect(search.stdout).toBe('No memories are close in meaning.\n');
  });
});
