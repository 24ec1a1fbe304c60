import { isTestOnly, unitOf } from './units.ts';
import type { Unit } from './units.ts';

/** A module and the modules it imports, as a cruise reports them. */
export interface ModuleImports {
  source: string;
  dependencies: ReadonlyArray<{ resolved: string }>;
}

/** An import between two units, with one module import that makes it. */
export interface UnitEdge {
  from: string;
  to: string;
  via: { from: string; to: string };
}

/** A strongly connected set of units (areas, kernel folders, …) and the edges that tie it. */
export interface AreaCycle {
  units: string[];
  edges: UnitEdge[];
}

/**
 * Assigns every module its unit. An area's test kit that builds a whole gateway (imports the
 * composition or a testing/gateway builder, directly or through another such kit) is itself a
 * whole-gateway builder: it sits at composition level, not inside its area.
 */
export function assignUnits(modules: readonly ModuleImports[]): Map<string, Unit> {
  const units = new Map<string, Unit>();
  for (const module of modules) {
    const unit = unitOf(module.source);
    if (unit) units.set(module.source, unit);
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const module of modules) {
      const unit = units.get(module.source);
      if (unit?.layer !== 'area' || !isTestOnly(module.source)) continue;
      const buildsGateway = module.dependencies.some(
        (d) => units.get(d.resolved)?.layer === 'composition',
      );
      if (buildsGateway) {
        units.set(module.source, { name: `${unit.name} (gateway builders)`, layer: 'composition' });
        changed = true;
      }
    }
  }
  return units;
}

/** The unit-level graph: one edge per pair of units, with the first module import seen. */
export function unitGraph(modules: readonly ModuleImports[]): Map<string, Map<string, UnitEdge>> {
  const units = assignUnits(modules);
  const graph = new Map<string, Map<string, UnitEdge>>();
  for (const module of modules) {
    const from = units.get(module.source);
    if (!from || /\.test\.ts$/.test(module.source)) continue;
    const out = graph.get(from.name) ?? new Map<string, UnitEdge>();
    graph.set(from.name, out);
    for (const dependency of module.dependencies) {
      const to = units.get(dependency.resolved);
      if (!to || to.name === from.name || out.has(to.name)) continue;
      out.set(to.name, {
        from: from.name,
        to: to.name,
        via: { from: module.source, to: dependency.resolved },
      });
    }
  }
  return graph;
}

/** The area-level cycles: strongly connected components of more than one unit (Tarjan). */
export function areaCycles(modules: readonly ModuleImports[]): AreaCycle[] {
  const graph = unitGraph(modules);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((members) => ({
    units: members,
    edges: members.flatMap((from) =>
      [...(graph.get(from)?.values() ?? [])].filter((edge) => members.includes(edge.to)),
    ),
  }));
}
