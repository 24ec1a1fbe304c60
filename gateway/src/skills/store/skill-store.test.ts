import { mkdtemp, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HearthError } from '../../errors.ts';
import { createToolRegistry } from '../../tools/ports.ts';
import type { ToolRegistry } from '../../tools/ports.ts';
import { fakeIsolation, fakeValidate } from '../testing/skill-doubles.ts';
import { createSkillStore, type SkillStore } from './skill-store.ts';

const GREET = 'export function greet(args) { return `hi ${args.name}`; }\n';
const context = { sessionId: 's', channel: 'test' };

describe('skill store', () => {
  let home: string;
  let tools: ToolRegistry;
  let isolation: ReturnType<typeof fakeIsolation>;
  let store: SkillStore;
  const build = () =>
    createSkillStore({
      skillsDir: join(home, 'skills'),
      dataDir: join(home, 'skill-data'),
      validate: fakeValidate,
      isolation,
      tools,
      logger: pino({ level: 'silent' }),
      now: () => 1_700_000_000_000,
    });

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'hearth-skills-'));
    tools = createToolRegistry();
    isolation = fakeIsolation();
    store = build();
    await store.loadAll();
  });
  afterEach(async () => {
    await store.close();
    await rm(home, { recursive: true, force: true });
  });

  it('a trusted install writes the files (0600) and registers <skill>_<fn> tools at once', async () => {
    const entry = await store.install({
      name: 'hello',
      kind: 'mjs',
      source: GREET,
      origin: 'trusted',
    });
    expect(entry).toMatchObject({
      name: 'hello',
      state: 'active',
      tools: ['hello_greet'],
      load_error: null,
    });
    expect(await readFile(join(home, 'skills/hello/skill.mjs'), 'utf8')).toBe(GREET);
    expect((await stat(join(home, 'skills/hello/skill.mjs'))).mode & 0o777).toBe(0o600);
    const manifest = JSON.parse(await readFile(join(home, 'skills/hello/skill.json'), 'utf8'));
    expect(manifest).toMatchObject({ state: 'active', origin: 'trusted', network: false });
    expect(tools.get('hello_greet')?.source).toBe('skill:hello');
    expect(await tools.get('hello_greet')!.execute(context, { name: 'a' })).toBe(
      'greet({"name":"a"})',
    );
    expect((await stat(join(home, 'skill-data/hello'))).isDirectory()).toBe(true);
  });

  it.each([
    ['trusted', 'owner'],
    ['review', 'owner'],
    ['https://hub.example/hello.mjs', 'hub package hello'],
    ['data:sha256:00ff', 'hub package hello'],
    ['migrate:neuralcleave', 'skill hello (migrate:neuralcleave)'],
  ])(
    'a skill of origin %s has its tool descriptions written by %s',
    async (origin, describedBy) => {
      await store.install({ name: 'hello', kind: 'mjs', source: GREET, origin });
      expect(tools.get('hello_greet')?.describedBy).toBe(describedBy);
    },
  );

  it('a blocked construct is refused with its line, and nothing is written', async () => {
    const source = 'const x = 1;\nimport("child_process");\n';
    await expect(
      store.install({ name: 'bad', kind: 'mjs', source, origin: 'trusted' }),
    ).rejects.toThrow(/line 2: import 'child_process'/);
    await expect(stat(join(home, 'skills/bad'))).rejects.toThrow();
    expect(store.get('bad')).toBeUndefined();
  });

  it.each(['../evil', 'a/b', 'a\\b', '..', '', 'x'.repeat(33), '1abc', 'a b'])(
    'refuses the name %j',
    async (name) => {
      await expect(
        store.install({ name, kind: 'mjs', source: GREET, origin: 'trusted' }),
      ).rejects.toMatchObject({ code: 'validation' });
    },
  );

  it('quarantine unloads but keeps the file; writing again clears it', async () => {
    await store.install({ name: 'hello', kind: 'mjs', source: GREET, origin: 'trusted' });
    const quarantined = await store.quarantine('hello');
    expect(quarantined).toMatchObject({ state: 'quarantined', tools: [] });
    expect(tools.get('hello_greet')).toBeUndefined();
    expect(isolation.closed).toEqual(['hello']);
    expect(await readFile(join(home, 'skills/hello/skill.mjs'), 'utf8')).toBe(GREET);
    await expect(store.setEnabled('hello', true)).rejects.toMatchObject({ code: 'conflict' });

    // It stays quarantined across a restart.
    await store.close();
    store = build();
    await store.loadAll();
    expect(store.get('hello')?.state).toBe('quarantined');
    expect(tools.get('hello_greet')).toBeUndefined();

    const again = await store.install({
      name: 'hello',
      kind: 'mjs',
      source: GREET,
      origin: 'trusted',
    });
    expect(again.state).toBe('active');
    expect(tools.get('hello_greet')).toBeDefined();
  });

  it('disable and enable unload and reload the tools', async () => {
    await store.install({ name: 'hello', kind: 'mjs', source: GREET, origin: 'trusted' });
    expect((await store.setEnabled('hello', false)).state).toBe('disabled');
    expect(tools.get('hello_greet')).toBeUndefined();
    expect((await store.setEnabled('hello', true)).state).toBe('active');
    expect(tools.get('hello_greet')).toBeDefined();
  });

  it('remove deletes the files and the tools', async () => {
    await store.install({ name: 'hello', kind: 'mjs', source: GREET, origin: 'trusted' });
    expect(await store.remove('hello')).toBe(true);
    expect(await store.remove('hello')).toBe(false);
    expect(tools.get('hello_greet')).toBeUndefined();
    await expect(stat(join(home, 'skills/hello'))).rejects.toThrow();
    expect(store.list()).toEqual([]);
  });

  it('a host that fails to start leaves the skill written, in state error with the reason', async () => {
    const entry = await store.install({
      name: 'broken',
      kind: 'mjs',
      source: '// FAIL_TO_START\nexport function x() {}\n',
      origin: 'trusted',
    });
    expect(entry).toMatchObject({ state: 'error', tools: [] });
    expect(entry.load_error).toMatch(/host refused/);
  });

  it('a tool name clash is a load error, not a crash', async () => {
    // The clash arises after the install (an install that would clash is refused: below).
    await store.install({ name: 'hello', kind: 'mjs', source: GREET, origin: 'trusted' });
    await store.setEnabled('hello', false);
    tools.register({
      name: 'hello_greet',
      description: '',
      parameters: {},
      source: 'builtin',
      execute: () => Promise.resolve(''),
    });
    const entry = await store.setEnabled('hello', true);
    expect(entry.state).toBe('error');
    expect(entry.load_error).toMatch(/already registered/);
    expect(tools.get('hello_greet')?.source).toBe('builtin');
  });

  it('an install whose tool another origin holds is a 409 naming it, and nothing is written', async () => {
    tools.reserve('hello_greet', 'builtin');
    const refused = await store
      .install({ name: 'hello', kind: 'mjs', source: GREET, origin: 'trusted' })
      .catch((error: unknown) => error as HearthError);
    expect(refused).toBeInstanceOf(HearthError);
    expect((refused as HearthError).code).toBe('conflict');
    expect((refused as HearthError).message).toMatch(/'hello_greet' \(skill:hello\).*builtin/);
    expect(store.get('hello')).toBeUndefined();
    expect(existsSync(join(home, 'skills/hello'))).toBe(false);
  });

  it('at load, a skill with one tool another origin holds loads none, and its code never runs', async () => {
    const MEMORY = 'export function recall() {}\nexport function search() {}\n';
    await store.install({ name: 'memory', kind: 'mjs', source: MEMORY, origin: 'trusted' });
    await store.close();
    // A restart: the owner of memory_search reserved it before the skills on disk load.
    tools = createToolRegistry();
    tools.reserve('memory_search', 'builtin');
    isolation = fakeIsolation();
    store = build();
    await store.loadAll();
    const entry = store.get('memory')!;
    expect(entry).toMatchObject({ state: 'error', tools: [] });
    expect(entry.load_error).toMatch(/'memory_search' \(skill:memory\).*reserved by builtin/);
    expect(tools.list()).toEqual([]);
    expect(isolation.started).toEqual([]);
  });

  it('reload re-reads from disk: a hand edit that adds a blocked import is an error', async () => {
    await store.install({ name: 'hello', kind: 'mjs', source: GREET, origin: 'trusted' });
    await writeFile(join(home, 'skills/hello/skill.mjs'), "import 'child_process';\n");
    const [entry] = await store.reload('hello');
    expect(entry).toMatchObject({ state: 'error', tools: [] });
    expect(entry!.load_error).toMatch(/line 1/);
    expect(tools.get('hello_greet')).toBeUndefined();
  });

  it('"without_wall" is the owner\'s hand edit only: passed to the host and shown; an install drops it', async () => {
    const hosted: { name: string; withoutWall?: boolean }[] = [];
    const start = isolation.start.bind(isolation);
    isolation.start = (options) => {
      hosted.push({ name: options.name, withoutWall: options.withoutWall });
      return start(options);
    };
    const installed = await store.install({
      name: 'hello',
      kind: 'mjs',
      source: GREET,
      origin: 'https://hub.example/hello',
    });
    expect(installed.without_wall).toBe(false);
    const path = join(home, 'skills/hello/skill.json');
    const manifest = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(manifest).not.toHaveProperty('without_wall');
    await writeFile(path, JSON.stringify({ ...manifest, without_wall: true }));
    const [edited] = await store.reload('hello');
    expect(edited).toMatchObject({ state: 'active', without_wall: true });
    expect(hosted.at(-1)).toEqual({ name: 'hello', withoutWall: true });
    // A state change keeps the owner's edit; writing the skill again (hub, review) drops it.
    await store.setEnabled('hello', false);
    expect((await store.setEnabled('hello', true)).without_wall).toBe(true);
    expect(hosted.at(-1)).toEqual({ name: 'hello', withoutWall: true });
    const again = await store.install({
      name: 'hello',
      kind: 'mjs',
      source: GREET,
      origin: 'review',
    });
    expect(again.without_wall).toBe(false);
    expect(hosted.at(-1)).toEqual({ name: 'hello', withoutWall: undefined });
    expect(JSON.parse(await readFile(path, 'utf8'))).not.toHaveProperty('without_wall');
  });

  it('reload of all picks up new folders and forgets removed ones', async () => {
    await store.install({ name: 'hello', kind: 'mjs', source: GREET, origin: 'trusted' });
    await rm(join(home, 'skills/hello'), { recursive: true });
    const entries = await store.reload();
    expect(entries).toEqual([]);
    expect(tools.get('hello_greet')).toBeUndefined();
  });

  it('refuses to write through a symbolic link planted in the skills folder', async () => {
    const outside = join(home, 'outside');
    await mkdir(outside);
    await symlink(outside, join(home, 'skills/linked'));
    await expect(
      store.install({ name: 'linked', kind: 'mjs', source: GREET, origin: 'trusted' }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(stat(join(outside, 'skill.mjs'))).rejects.toThrow();
  });

  it('detects a plugin: a default-exported Plugin subclass', async () => {
    const source = 'class Plugin {}\nexport default class Weather extends Plugin {}\n';
    const entry = await store.install({ name: 'weather', kind: 'mjs', source, origin: 'trusted' });
    expect(store.get('weather')?.plugin).toBe(true);
    expect(entry.name).toBe('weather');
  });

  it('a skill whose manifest was corrupted is listed in state error; show and quarantine are 409', async () => {
    await store.install({ name: 'hello', kind: 'mjs', source: GREET, origin: 'trusted' });
    await writeFile(join(home, 'skills/hello/skill.json'), '{broken');
    const [entry] = await store.reload('hello');
    expect(entry).toMatchObject({ state: 'error', tools: [] });
    expect(entry!.load_error).toMatch(/unreadable/);
    await expect(store.source('hello')).rejects.toMatchObject({ code: 'conflict' });
    await expect(store.quarantine('hello')).rejects.toMatchObject({ code: 'conflict' });
    expect(await store.remove('hello')).toBe(true);
  });
});
