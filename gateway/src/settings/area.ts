import type { Logger } from 'pino';
import type { HearthConfig } from '../config/schema.ts';
import type { Area } from '../lifecycle/area.ts';
import type { LlmRouter } from '../providers/ports.ts';
import { settingsRoutes } from './routes.ts';
import { createSettingsService, type SettingsService } from './settings-service.ts';
import { defineArea } from '../lifecycle/install.ts';

export interface SettingsAreaDeps {
  config: HearthConfig;
  configPath: string;
  router: LlmRouter;
  logger: Logger;
}

export interface SettingsArea extends Area {
  readonly service: SettingsService;
}

/** `/settings…`: provider fields persisted to config.toml, runtime model/privacy settings. */
export function settingsArea(deps: SettingsAreaDeps): SettingsArea {
  const service = createSettingsService({
    config: deps.config,
    configPath: deps.configPath,
    router: deps.router,
    logger: deps.logger.child({ area: 'settings' }),
  });
  return { name: 'settings', service, routes: settingsRoutes(service) };
}

export const settings = defineArea(
  'settings',
  (kernel, { providers }: { providers: { router: LlmRouter } }) =>
    settingsArea({
      config: kernel.config,
      configPath: kernel.paths.configPath,
      router: providers.router,
      logger: kernel.logger,
    }),
);
