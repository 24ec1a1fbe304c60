import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { HearthError, notFound, validationError } from '../../errors.ts';
import { OWNER_DESCRIBED, type ToolRegistry } from '../../tools/ports.ts';
import type {
  InstalledSkill,
  SkillCapability,
  SkillCatalog,
  SkillHost,
  SkillIsolation,
  SkillKind,
  SkillProblem,
  SkillState,
  SkillToolSpec,
  ValidateSkill,
} from '../types.ts';
import { codeFile, MANIFEST_FILE, manifestSchema, type SkillManifest } from './manifest.ts';
import { declaredHosts } from './declared-hosts.ts';
import { hostToolsFor } from './host-tools.ts';
import { capDescription } from '../scanner/tool-description.ts';
import { assertSkillName, skillNameProblem, skillOrigin, toolName } from './names.ts';
import { isPluginSource } from './plugin-shape.ts';
import { assertNoSymlinks, ensurePrivateDir, removeInside, writeFileAtomic } from './safe-files.ts';

/** Largest skill module accepted (trusted writes, proposals, installs). */
export const MAX_SKILL_SOURCE_BYTES = 256 * 1024;

export interface SkillStoreDeps {
  /** `{data_dir}/skills`: one folder per skill. */
  skillsDir: string;
  /** `{data_dir}/skill-data`: the one folder per skill the skill may write. */
  dataDir: string;
  validate: ValidateSkill;
  isolation: SkillIsolation;
  tools: ToolRegistry;
  logger: Logger;
  now: () => number;
}

/** An installed skill with what the plugins routes add: whether it is a plugin, its manifest. */
export interface SkillEntry extends InstalledSkill {
  plugin: boolean;
  network: boolean;
  /** Its owner opted it out of the wall by hand (skill.json `"without_wall": true`). */
  without_wall: boolean;
  /** The hosts the gateway fetches for it (skill.json `hosts`); none: no network. */
  hosts: string[];
  /** The gateway tools its calls may ask for, each behind that tool's approval gate. */
  capabilities: SkillCapability[];
  updated_at: number;
}

/** The catalog plus what only the skills routes need. */
export interface SkillStore extends SkillCatalog {
  list(): SkillEntry[];
  get(name: string): SkillEntry | undefined;
  install(input: Parameters<SkillCatalog['install']>[0]): Promise<SkillEntry>;
  setEnabled(name: string, enabled: boolean): Promise<SkillEntry>;
  reload(name?: string): Promise<SkillEntry[]>;
  /** The skill's code as stored on disk. */
  source(name: string): Promise<string>;
  /** Unloads the skill and marks it quarantined; the files stay until a new write or a delete. */
  quarantine(name: string): Promise<SkillEntry>;
  /** Reads every skill folder and loads the active ones (the area's start-up phase). */
  loadAll(): Promise<void>;
  /** Stops every skill host. */
  close(): Promise<void>;
}

/** How `load_error` begins for a skill whose host was stopped over a resource limit. */
export const OVER_LIMIT = 'stopped over a resource limit: ';

/** `line 3: import 'child_process' — blocked module`, one per problem. */

/**
 * Who wrote a skill's tool descriptions, as a turn that offers them names it: the owner for a
 * skill written through the trusted path or a proposal the owner approved; a hub package's
 * publisher; anything else (a migrated skill, an unknown origin) is a third party too.
 */
function describedByOf(name: string, origin: string): string {
  if (origin === 'trusted' || origin === 'review') return OWNER_DESCRIBED;
  if (origin.startsWith('https://') || origin.startsWith('data:')) return `hub package ${name}`;
  return `skill ${name} (${origin})`;
}

export function describeProblems(problems: readonly SkillProblem[]): string {
  return problems
    .map((problem) => `line ${problem.line}: ${problem.construct} — ${problem.message}`)
    .join('; ');
}

interface Loaded {
  entry: SkillEntry;
  host?: SkillHost;
  registered: string[];
}

/**
 * The skills store on disk: `{skillsDir}/<name>/skill.mjs|skill.py` plus `skill.json`. Every
 * write is atomic and refuses symbolic links; every state change is logged. Active skills run
 * in a host from the isolation port and their functions are registered as `<skill>_<fn>`
 * tools (source `skill:<name>`) in the gateway's one registry; operations run one at a time.
 */
export function createSkillStore(deps: SkillStoreDeps): SkillStore {
  const { skillsDir, logger } = deps;
  const skills = new Map<string, Loaded>();
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  const dirOf = (name: string) => join(skillsDir, name);

  const logChange = (
    name: string,
    from: SkillState | 'absent',
    to: SkillState | 'absent',
    extra = {},
  ) => {
    logger.info({ skill: name, from, to, ...extra }, 'skill state changed');
  };

  async function unload(name: string): Promise<void> {
    const loaded = skills.get(name);
    if (!loaded) return;
    for (const tool of loaded.registered) deps.tools.unregister(tool);
    loaded.registered = [];
    loaded.entry = { ...loaded.entry, tools: [] };
    const host = loaded.host;
    loaded.host = undefined;
    await host?.close().catch((error: unknown) => {
      logger.warn({ err: error, skill: name }, 'skill host did not close cleanly');
    });
  }

  function entryOf(name: string, manifest: SkillManifest): SkillEntry {
    return {
      name,
      kind: manifest.kind,
      state: manifest.state,
      tools: [],
      load_error: null,
      origin: manifest.origin,
      version: manifest.version,
      tags: manifest.tags,
      plugin: manifest.plugin,
      network: manifest.network,
      without_wall: manifest.without_wall === true,
      hosts: [...manifest.hosts],
      capabilities: [...manifest.capabilities],
      updated_at: manifest.updated_at,
    };
  }

  /** The first of the skill's tools another origin holds (registered or reserved), or null. */
  function collision(name: string, tools: readonly SkillToolSpec[]): string | null {
    for (const spec of tools) {
      const problem = deps.tools.conflict(toolName(name, spec.name), skillOrigin(name));
      if (problem !== null) return problem;
    }
    return null;
  }

  /**
   * A host of the skill went over a resource limit and was stopped: its tools are taken away
   * and it stays in state `error` (`load_error` says which limit) until it is loaded again
   * (reload, enable, a new write or a restart), so a hostile skill is not restarted call after call.
   */
  function overLimit(name: string, loaded: Loaded, reason: string): void {
    void serial(async () => {
      if (skills.get(name) !== loaded || loaded.entry.state !== 'active') return;
      await unload(name);
      loaded.entry = { ...loaded.entry, state: 'error', load_error: `${OVER_LIMIT}${reason}` };
      logChange(name, 'active', 'error', { load_error: loaded.entry.load_error });
    });
  }

  /**
   * Starts the skill's host and registers its tools, all or none; a failure (a tool name
   * another origin holds among them) leaves it in state `error`.
   */
  async function load(name: string, manifest: SkillManifest, source: string): Promise<SkillEntry> {
    await unload(name);
    const loaded: Loaded = { entry: entryOf(name, manifest), registered: [] };
    skills.set(name, loaded);
    if (manifest.state !== 'active') return loaded.entry;
    const fail = (reason: string): SkillEntry => {
      loaded.entry = { ...loaded.entry, state: 'error', load_error: reason, tools: [] };
      logChange(name, 'active', 'error', { load_error: reason });
      return loaded.entry;
    };
    // The file may have been edited by hand since it was written: layer 1 runs on every load.
    const validation = await deps.validate(source, manifest.kind);
    if (!validation.ok) return fail(`rejected: ${describeProblems(validation.problems)}`);
    // Refused before its code runs: a skill never takes a built-in's or a server's name.
    const taken = collision(name, validation.tools);
    if (taken !== null) return fail(`not loaded: ${taken}`);
    if (manifest.network && manifest.hosts.length === 0)
      logger.warn(
        { skill: name },
        'skill.json sets network: true but declares no hosts: the skill gets no network',
      );
    let host: SkillHost;
    try {
      const dataDir = join(deps.dataDir, name);
      await ensurePrivateDir(deps.dataDir, dataDir);
      host = await deps.isolation.start({
        name,
        kind: manifest.kind,
        dir: dirOf(name),
        dataDir,
        network: manifest.network,
        ...(manifest.without_wall === true ? { withoutWall: true } : {}),
        hosts: manifest.hosts,
        onLimit: (reason) => overLimit(name, loaded, reason),
      });
    } catch (error) {
      return fail(`failed to start: ${(error as Error).message}`);
    }
    loaded.host = host;
    // The code is what declares them (read again on every load, like layer 1).
    const capabilities = validation.capabilities ?? [];
    loaded.entry = { ...loaded.entry, capabilities: [...capabilities] };
    for (const spec of host.tools) {
      const name_ = toolName(name, spec.name);
      try {
        deps.tools.register({
          name: name_,
          // The model is shown at most MAX_DESCRIPTION_CHARS (the owner saw the same at install).
          description: capDescription(spec.description).description,
          parameters: spec.parameters,
          source: skillOrigin(name),
          describedBy: describedByOf(name, manifest.origin),
          execute: (context, args) =>
            host.call(spec.name, args, {
              signal: context.signal,
              hostTools: hostToolsFor({
                skill: name,
                capabilities,
                tools: deps.tools,
                context,
                logger,
              }),
            }),
        });
        loaded.registered.push(name_);
      } catch (error) {
        await unload(name);
        return fail(`tool ${name_}: ${(error as Error).message}`);
      }
    }
    loaded.entry = { ...loaded.entry, tools: [...loaded.registered] };
    return loaded.entry;
  }

  /** The manifest and code on disk; an unreadable skill is a 409 naming why (never a 500). */
  async function readSkill(name: string): Promise<{ manifest: SkillManifest; source: string }> {
    const dir = dirOf(name);
    try {
      await assertNoSymlinks(skillsDir, join(dir, MANIFEST_FILE));
      const manifest = manifestSchema.parse(
        JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')),
      );
      await assertNoSymlinks(skillsDir, join(dir, codeFile(manifest.kind)));
      const source = await readFile(join(dir, codeFile(manifest.kind)), 'utf8');
      return { manifest, source };
    } catch (error) {
      if (error instanceof HearthError) throw error;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new HearthError('conflict', `Skill '${name}' cannot be read: ${reason}`);
    }
  }

  /** Loads one folder from disk; an unreadable one is listed in state `error`. */
  async function loadFromDisk(name: string): Promise<SkillEntry> {
    try {
      const { manifest, source } = await readSkill(name);
      return await load(name, manifest, source);
    } catch (error) {
      await unload(name);
      const entry: SkillEntry = {
        name,
        kind: 'mjs',
        state: 'error',
        tools: [],
        load_error: `unreadable: ${(error as Error).message}`,
        origin: 'unknown',
        version: '0.0.0',
        tags: [],
        plugin: false,
        network: false,
        without_wall: false,
        hosts: [],
        capabilities: [],
        updated_at: 0,
      };
      skills.set(name, { entry, registered: [] });
      logger.warn({ skill: name, load_error: entry.load_error }, 'skill could not be read');
      return entry;
    }
  }

  async function writeManifest(name: string, manifest: SkillManifest): Promise<void> {
    await writeFileAtomic(
      skillsDir,
      join(dirOf(name), MANIFEST_FILE),
      `${JSON.stringify(manifest, null, 2)}\n`,
    );
  }

  async function folderNames(): Promise<string[]> {
    await ensurePrivateDir(skillsDir, skillsDir);
    const entries = await readdir(skillsDir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() && skillNameProblem(entry.name) === null)
      .map((entry) => entry.name)
      .sort();
  }

  const mustGet = (name: string): Loaded => {
    assertSkillName(name);
    const loaded = skills.get(name);
    if (!loaded) throw notFound(`No skill named '${name}'`);
    return loaded;
  };

  const snapshot = (entry: SkillEntry): SkillEntry => ({
    ...entry,
    tools: [...entry.tools],
    capabilities: [...entry.capabilities],
    hosts: [...entry.hosts],
    tags: [...entry.tags],
  });

  return {
    list: () =>
      [...skills.values()]
        .map((loaded) => snapshot(loaded.entry))
        .sort((a, b) => a.name.localeCompare(b.name)),
    get: (name) => {
      const loaded = skills.get(name);
      return loaded ? snapshot(loaded.entry) : undefined;
    },

    install: (input) =>
      serial(async () => {
        if (closed) throw new HearthError('unavailable', 'The skills store is closed');
        assertSkillName(input.name);
        if (Buffer.byteLength(input.source, 'utf8') > MAX_SKILL_SOURCE_BYTES)
          throw validationError(`code must be at most ${MAX_SKILL_SOURCE_BYTES} bytes`);
        const validation = await deps.validate(input.source, input.kind);
        if (!validation.ok)
          throw validationError(`code rejected: ${describeProblems(validation.problems)}`);
        const plugin = await isPluginSource(input.source, input.kind);
        const taken = collision(input.name, validation.tools);
        if (taken !== null) throw new HearthError('conflict', `${taken}; nothing was installed`);
        // The code's `hearth:hosts` header: its hosts, and network when it declares any.
        const hosts = declaredHosts(input.source, input.kind);
        const before = skills.get(input.name)?.entry.state ?? 'absent';
        const previous = skills.get(input.name)?.entry;
        const manifest: SkillManifest = {
          kind: input.kind,
          // Writing again clears quarantine (and a disabled flag).
          state: 'active',
          origin: input.origin,
          version: input.version ?? previous?.version ?? '0.1.0',
          tags: input.tags ?? previous?.tags ?? [],
          network: hosts.length > 0,
          hosts,
          capabilities: validation.capabilities ?? [],
          plugin,
          updated_at: deps.now(),
        };
        const dir = dirOf(input.name);
        await ensurePrivateDir(skillsDir, dir);
        await unload(input.name);
        const other: SkillKind = input.kind === 'mjs' ? 'py' : 'mjs';
        await removeInside(skillsDir, join(dir, codeFile(other)));
        await writeFileAtomic(skillsDir, join(dir, codeFile(input.kind)), input.source);
        await writeManifest(input.name, manifest);
        const entry = await load(input.name, manifest, input.source);
        if (entry.state === 'active')
          logChange(input.name, before, 'active', { origin: input.origin });
        return snapshot(entry);
      }),

    setEnabled: (name, enabled) =>
      serial(async () => {
        const loaded = mustGet(name);
        const from = loaded.entry.state;
        if (from === 'quarantined')
          throw new HearthError(
            'conflict',
            `Skill '${name}' is quarantined: write it again to clear`,
          );
        const { manifest, source } = await readSkill(name);
        const next: SkillManifest = {
          ...manifest,
          state: enabled ? 'active' : 'disabled',
          updated_at: deps.now(),
        };
        await writeManifest(name, next);
        const entry = await load(name, next, source);
        if (entry.state !== 'error') logChange(name, from, entry.state);
        return snapshot(entry);
      }),

    source: async (name) => {
      mustGet(name);
      return (await readSkill(name)).source;
    },

    quarantine: (name) =>
      serial(async () => {
        const loaded = mustGet(name);
        const from = loaded.entry.state;
        const { manifest, source } = await readSkill(name);
        const next: SkillManifest = { ...manifest, state: 'quarantined', updated_at: deps.now() };
        await writeManifest(name, next);
        const entry = await load(name, next, source);
        logChange(name, from, 'quarantined');
        return snapshot(entry);
      }),

    remove: (name) =>
      serial(async () => {
        assertSkillName(name);
        const loaded = skills.get(name);
        if (!loaded) return false;
        await unload(name);
        skills.delete(name);
        await removeInside(skillsDir, dirOf(name));
        await removeInside(deps.dataDir, join(deps.dataDir, name));
        logChange(name, loaded.entry.state, 'absent');
        return true;
      }),

    reload: (name) =>
      serial(async () => {
        if (name !== undefined) {
          mustGet(name);
          const entry = await loadFromDisk(name);
          logger.info({ skill: name, state: entry.state }, 'skill reloaded');
          return [snapshot(entry)];
        }
        const names = await folderNames();
        for (const gone of [...skills.keys()].filter((known) => !names.includes(known))) {
          await unload(gone);
          skills.delete(gone);
          logChange(gone, 'active', 'absent', { reason: 'folder removed' });
        }
        const entries: SkillEntry[] = [];
        for (const folder of names) entries.push(snapshot(await loadFromDisk(folder)));
        logger.info({ skills: entries.length }, 'skills reloaded');
        return entries;
      }),

    loadAll: () =>
      serial(async () => {
        await ensurePrivateDir(deps.dataDir, deps.dataDir);
        for (const folder of await folderNames()) {
          const entry = await loadFromDisk(folder);
          logger.info({ skill: folder, state: entry.state, tools: entry.tools }, 'skill loaded');
        }
      }),

    close: () =>
      serial(async () => {
        closed = true;
        for (const name of [...skills.keys()]) await unload(name);
      }),
  };
}
