import { lineOf } from './ast.ts';
import type { ScanRule } from './contract.ts';

/** `import 'https://…'`, `import('data:…')`: code fetched from elsewhere at load time. */
export const remoteImport: ScanRule<'download.remote-import'> = {
  meta: {
    name: 'remote-import',
    description: 'imports code from a URL',
    findings: { 'download.remote-import': 'critical' },
  },
  create(context) {
    return {
      ModuleReference({ specifier, remote, node }) {
        if (!remote) return;
        const at = lineOf(node);
        context.report('download.remote-import', at, `imports code from ${specifier.slice(0, 60)}`);
        context.facts.runsCode.push(at);
        context.facts.network.push(at);
      },
    };
  },
};
