import { startupPhases, type Area } from './area.ts';
import type { Kernel } from './kernel.ts';
import type { StartupPhase } from './startup.ts';

/**
 * How an area installs itself: its name, and a factory that takes the kernel, the faces of the
 * areas it names (listed before it) and its own options (test seams, tuning). The factory's
 * `needs` parameter is the list of what it depends on: TypeScript refuses a line placed before
 * an area it needs.
 */
export interface AreaInstaller<Name extends string, Needs, Installed extends Area, Options> {
  readonly name: Name;
  readonly install: (kernel: Kernel, needs: Needs, options: Options | undefined) => Installed;
}

export function defineArea<Name extends string, Needs, Installed extends Area, Options = never>(
  name: Name,
  install: (kernel: Kernel, needs: Needs, options: Options | undefined) => Installed,
): AreaInstaller<Name, Needs, Installed, Options> {
  return { name, install };
}

/** The areas installed so far, in order, and their faces by name. */
export interface Installation<Built> {
  /** Installs the next area; it may use every area installed before it. */
  add<Name extends string, Installed extends Area, Options>(
    installer: AreaInstaller<Name, Built, Installed, Options>,
  ): Installation<Built & Record<Name, Installed>>;
  readonly areas: readonly Area[];
  readonly built: Built;
  /** The start-up phases of the areas that have one, in list order. */
  phases(): StartupPhase[];
}

/**
 * Installs areas one line each, in start-up order (shutdown runs in reverse):
 * `installAreas(kernel, options).add(providers).add(settings)…`. `options` holds each area's
 * options under its name.
 */
export function installAreas(
  kernel: Kernel,
  options: Readonly<Record<string, unknown>> = {},
): Installation<object> {
  const areas: Area[] = [];
  const built: Record<string, Area> = {};
  const installation = {
    areas,
    built,
    phases: () => startupPhases(areas),
    add(installer: AreaInstaller<string, object, Area, unknown>) {
      if (installer.name in built) throw new Error(`Area ${installer.name} is installed twice`);
      const area = installer.install(kernel, built, options[installer.name]);
      areas.push(area);
      built[installer.name] = area;
      return installation;
    },
  };
  return installation as unknown as Installation<object>;
}
