import { blockedProcessMembers } from '../blocked.ts';
import type { BlockedRule } from './contract.ts';
import { importedName, isProcessModule, shorten } from './names.ts';
import { checkSpecifier } from './specifiers.ts';

/** `import … from`, `export … from`: blocked modules, and process's blocked members by name. */
export const moduleDeclarations: BlockedRule = {
  meta: {
    name: 'module-declarations',
    description: 'an import or re-export names a blocked module or process member',
  },
  create(context) {
    return {
      ImportDeclaration(node) {
        const specifier = String(node.source.value);
        checkSpecifier(context, node, specifier, `import '${shorten(specifier)}'`, {
          dynamic: false,
        });
        if (!isProcessModule(specifier)) return;
        for (const imported of node.specifiers) {
          if (imported.type !== 'ImportSpecifier') continue;
          const name = importedName(imported.imported);
          const reason = blockedProcessMembers.get(name);
          if (reason)
            context.report(
              imported,
              `import { ${name} } from '${specifier}'`,
              `process.${name} is blocked: ${reason}`,
            );
        }
      },
      ExportAllDeclaration(node) {
        const specifier = String(node.source.value);
        const construct = `export … from '${shorten(specifier)}'`;
        checkSpecifier(context, node, specifier, construct, { dynamic: false });
        if (!isProcessModule(specifier)) return;
        // `export * from 'process'` re-exports every member, the blocked ones too.
        const blocked = [...blockedProcessMembers.keys()][0];
        if (blocked)
          context.report(
            node,
            construct,
            `process.${blocked} is blocked: ${blockedProcessMembers.get(blocked)}`,
          );
      },
      ExportNamedDeclaration(node) {
        if (!node.source) return;
        const specifier = String(node.source.value);
        const construct = `export … from '${shorten(specifier)}'`;
        checkSpecifier(context, node, specifier, construct, { dynamic: false });
        if (!isProcessModule(specifier)) return;
        const names = node.specifiers.map((specifier) => importedName(specifier.local));
        const blocked = names.find((name) => blockedProcessMembers.has(name));
        if (blocked)
          context.report(
            node,
            construct,
            `process.${blocked} is blocked: ${blockedProcessMembers.get(blocked)}`,
          );
      },
    };
  },
};
