import { z } from 'zod';
import { HearthError, notFound, validationError } from '../errors.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { JudgePackage } from './scanner/judge.ts';
import { isPluginSource } from './store/plugin-shape.ts';
import type { SkillEntry, SkillStore } from './store/skill-store.ts';
import { skillCode, skillName } from './routes.ts';

const pluginSchema = z.object({
  name: z.string(),
  tools: z.array(z.string()),
  metadata: z.object({
    kind: z.enum(['mjs', 'py']),
    origin: z.string(),
    version: z.string(),
    tags: z.array(z.string()),
    network: z.boolean(),
    hosts: z.array(z.string()),
    capabilities: z.array(z.string()),
    updated_at: z.number(),
  }),
  enabled: z.boolean(),
  /** `loaded`, or the state that keeps it from being loaded. */
  status: z.enum(['loaded', 'quarantined', 'disabled', 'error']),
  load_error: z.string().nullable(),
});

const toPlugin = (entry: SkillEntry): z.input<typeof pluginSchema> => ({
  name: entry.name,
  tools: entry.tools,
  metadata: {
    kind: entry.kind,
    origin: entry.origin,
    version: entry.version,
    tags: entry.tags,
    network: entry.network,
    hosts: entry.hosts,
    capabilities: entry.capabilities,
    updated_at: entry.updated_at,
  },
  enabled: entry.state === 'active' || entry.state === 'error',
  status: entry.state === 'active' ? 'loaded' : entry.state,
  load_error: entry.load_error,
});

const nameParams = z.object({ name: skillName });

export interface PluginRouteDeps {
  store: () => SkillStore;
  /**
   * The one verdict hub installs and `POST /hub/scan` reach (scanner/judge.ts): a flagged plugin
   * is refused unless `force`, which overrides the scanner and description findings only (the
   * store's layer 1 refuses what the validator refuses, whatever `force` says).
   */
  judge?: JudgePackage;
}

/** `/plugins`: the skills that default-export a `Plugin` subclass, with their load status. */
export function pluginRoutes(deps: PluginRouteDeps): AnyRoute[] {
  const plugin = (name: string): SkillEntry => {
    const entry = deps.store().get(name);
    if (!entry?.plugin) throw notFound(`No plugin named '${name}'`);
    return entry;
  };
  const plugins = () =>
    deps
      .store()
      .list()
      .filter((entry) => entry.plugin);
  return [
    defineRoute({
      method: 'get',
      path: '/plugins',
      summary: 'Plugins with their tools, metadata and load status',
      tags: ['plugins'],
      response: z.object({ plugins: z.array(pluginSchema) }),
      handler: () => ({ plugins: plugins().map(toPlugin) }),
    }),
    defineRoute({
      method: 'post',
      path: '/plugins',
      summary: 'Install a plugin (trusted): scanned, validated, written and loaded',
      tags: ['plugins'],
      body: z.object({
        name: skillName,
        code: skillCode,
        kind: z.enum(['mjs', 'py']).default('mjs'),
        /** Overrides only the scanner; it also replaces a plugin of the same name. */
        force: z.boolean().default(false),
      }),
      response: pluginSchema,
      status: 201,
      handler: async ({ body }) => {
        if (!(await isPluginSource(body.code, body.kind)))
          throw validationError('code: a plugin default-exports a class extending Plugin');
        if (deps.store().get(body.name) && !body.force)
          throw new HearthError('conflict', `'${body.name}' is already installed (use force)`);
        const verdict = await deps.judge?.(body.code, body.kind);
        if (verdict?.flagged && !body.force) {
          const findings = verdict.findings
            .filter((finding) => finding.severity === 'high' || finding.severity === 'critical')
            .map((finding) => `line ${finding.line}: ${finding.rule} (${finding.severity})`)
            .join('; ');
          throw new HearthError(
            'conflict',
            `The scanner flagged the plugin: ${findings} (use force)`,
          );
        }
        const entry = await deps.store().install({
          name: body.name,
          kind: body.kind,
          source: body.code,
          origin: 'trusted',
        });
        return toPlugin(entry);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/plugins/reload',
      summary: 'Hot-reload every skill and plugin from disk',
      tags: ['plugins'],
      response: z.object({ plugins: z.array(pluginSchema) }),
      handler: async () => {
        await deps.store().reload();
        return { plugins: plugins().map(toPlugin) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/plugins/{name}',
      summary: 'One plugin: metadata, tools, load status',
      tags: ['plugins'],
      params: nameParams,
      response: pluginSchema,
      handler: ({ params }) => toPlugin(plugin(params.name)),
    }),
    defineRoute({
      method: 'post',
      path: '/plugins/{name}/reload',
      summary: 'Hot-reload one plugin from disk',
      tags: ['plugins'],
      params: nameParams,
      response: pluginSchema,
      handler: async ({ params }) => {
        plugin(params.name);
        await deps.store().reload(params.name);
        return toPlugin(plugin(params.name));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/plugins/{name}',
      summary: 'Enable or disable a plugin',
      tags: ['plugins'],
      params: nameParams,
      body: z.object({ enabled: z.boolean() }),
      response: pluginSchema,
      handler: async ({ params, body }) => {
        plugin(params.name);
        return toPlugin(await deps.store().setEnabled(params.name, body.enabled));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/plugins/{name}',
      summary: 'Uninstall a plugin',
      tags: ['plugins'],
      params: nameParams,
      response: z.object({ name: z.string(), deleted: z.literal(true) }),
      handler: async ({ params }) => {
        plugin(params.name);
        await deps.store().remove(params.name);
        return { name: params.name, deleted: true as const };
      },
    }),
  ];
}
