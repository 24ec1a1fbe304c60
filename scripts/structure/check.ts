import { cruise } from 'dependency-cruiser';
import type { ICruiseResult } from 'dependency-cruiser';
import { areaCycles } from './area-cycles.ts';
import type { AreaCycle } from './area-cycles.ts';
import { SOURCE_ROOT } from './layers.ts';
import { configuration } from './rules.ts';

/** One broken module-level rule: the rule's name and the import (or cycle) that breaks it. */
export interface RuleViolation {
  rule: string;
  from: string;
  to: string;
  cycle?: string[];
}

export interface StructureReport {
  modules: number;
  violations: RuleViolation[];
  areaCycles: AreaCycle[];
}

/**
 * Cruises `gateway/src` under `baseDir` once and checks it: the module-level rules of
 * rules.ts (area boundaries, the kernel and the fakes importing no area, no module cycle) and
 * the area-level cycles computed from the same module graph.
 */
export async function checkStructure(baseDir: string): Promise<StructureReport> {
  const { output } = await cruise([SOURCE_ROOT], {
    ...configuration.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: configuration.forbidden ?? [] },
  });
  const result = output as ICruiseResult;
  const violations = (result.summary.violations ?? []).map((violation) => ({
    rule: violation.rule.name,
    from: violation.from,
    to: violation.to,
    ...(violation.cycle
      ? { cycle: [violation.from, ...violation.cycle.map((step) => step.name)] }
      : {}),
  }));
  return { modules: result.modules.length, violations, areaCycles: areaCycles(result.modules) };
}

/** The report as lines for a terminal; empty when the structure is sound. */
export function describe(report: StructureReport): string[] {
  const lines = report.violations.map((v) =>
    v.cycle ? `${v.rule}: ${v.cycle.join(' → ')}` : `${v.rule}: ${v.from} → ${v.to}`,
  );
  for (const cycle of report.areaCycles) {
    lines.push(`area-cycle: ${cycle.units.join(', ')}`);
    for (const edge of cycle.edges)
      lines.push(`  ${edge.from} → ${edge.to} (${edge.via.from} → ${edge.via.to})`);
  }
  return lines;
}
