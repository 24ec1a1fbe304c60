import type { IConfiguration, IForbiddenRuleType } from 'dependency-cruiser';
import { patterns } from './layers.ts';

/**
 * The module-level rules, in dependency-cruiser's `forbidden` form. The area-level cycle check
 * needs the whole graph and lives in area-cycles.ts.
 */
export const forbidden: IForbiddenRuleType[] = [
  {
    name: 'area-boundary',
    comment:
      "An area's production code imports another area only through that area's ports.ts (its one public face).",
    severity: 'error',
    from: { path: patterns.area, pathNot: patterns.testOnly },
    to: { path: patterns.area, pathNot: ['^gateway/src/$1/', patterns.areaPorts] },
  },
  {
    name: 'area-imports-composition',
    comment: "An area's production code never imports the files that build the gateway.",
    severity: 'error',
    from: { path: patterns.area, pathNot: patterns.testOnly },
    to: { path: patterns.composition },
  },
  {
    name: 'kernel-imports-area',
    comment:
      'The kernel (config, errors, lifecycle, http, ws, …) is imported by areas and imports none.',
    severity: 'error',
    from: { path: patterns.kernel, pathNot: patterns.testFile },
    to: { path: [patterns.area, patterns.composition] },
  },
  {
    name: 'fakes-import-area',
    comment: 'The low-level fakes under testing/fakes/ import no area and no gateway builder.',
    severity: 'error',
    from: { path: patterns.testFakes, pathNot: patterns.testFile },
    to: { path: [patterns.area, patterns.composition, patterns.testBuilders] },
  },
  {
    name: 'no-cycle',
    comment: 'No import cycle between production modules.',
    severity: 'error',
    from: { pathNot: patterns.testOnly },
    to: { circular: true, viaOnly: { pathNot: patterns.testOnly } },
  },
];

/** The whole configuration, shared by scripts/check-structure.ts and the depcruise CLI. */
export const configuration: IConfiguration = {
  forbidden,
  options: {
    // Type-only imports count: a port's types are part of the area's public face.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', patterns.testFile] },
  },
};
