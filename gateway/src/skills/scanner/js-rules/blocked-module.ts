import { blockedModuleOf } from '../../blocked-modules.ts';
import { lineOf } from './ast.ts';
import type { ScanRule } from './contract.ts';

/** A module a skill may never load (layer 1 refuses them too; the scanner says so again). */
export const blockedModule: ScanRule<'blocked.module'> = {
  meta: {
    name: 'blocked-module',
    description: 'loads a blocked built-in module',
    findings: { 'blocked.module': 'critical' },
  },
  create(context) {
    return {
      ModuleReference({ specifier, dynamic, remote, node }) {
        if (remote || !blockedModuleOf(specifier)) return;
        const at = lineOf(node);
        context.report(
          'blocked.module',
          at,
          `${dynamic ? 'import(' : 'import '}'${specifier}'${dynamic ? ')' : ''} is blocked`,
        );
        context.facts.runsCode.push(at);
      },
    };
  },
};
