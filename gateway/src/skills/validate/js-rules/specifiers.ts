/** Which modules a skill may name, and the checks of a named or computed module argument. */
import type { AnyNode } from 'acorn';
import { blockedModuleOf } from '../../blocked-modules.ts';
import { nativeAddonLoaders } from '../blocked.ts';
import { staticString } from '../static-value.ts';
import type { BlockedContext } from './contract.ts';
import { shorten } from './names.ts';

export function checkSpecifier(
  context: BlockedContext,
  node: AnyNode,
  specifier: string,
  construct: string,
  options: { dynamic: boolean; resolveOnly?: boolean },
): void {
  const reason = blockedSpecifierReason(specifier, options);
  if (reason) context.report(node, construct, reason);
}

/** `import(…)` or `require(…)`: the module must be a string known without running the code. */
export function checkModuleArgument(
  context: BlockedContext,
  node: AnyNode,
  argument: AnyNode | undefined,
  form: 'import' | 'require',
): void {
  const specifier =
    argument && argument.type !== 'SpreadElement' ? staticString(argument) : undefined;
  if (specifier === undefined) {
    context.report(
      node,
      `${form}(<expression>)`,
      `${form}() must name its module with a string literal, so the module can be checked`,
    );
    return;
  }
  checkSpecifier(context, node, specifier, `${form}('${shorten(specifier)}')`, { dynamic: true });
}

/**
 * The module Hearth gives a skill (`Plugin`, and the gated `shell`/`browser` of a skill that
 * declares them): the skill host resolves it to its own file, never to anything on disk.
 */
export const SKILL_API_SPECIFIER = 'hearth:skill';

/** Why a module specifier is refused, or undefined when it may be imported. */
export function blockedSpecifierReason(
  specifier: string,
  options: { dynamic: boolean; resolveOnly?: boolean },
): string | undefined {
  if (specifier === SKILL_API_SPECIFIER) return undefined;
  const prefixed = specifier.startsWith('node:');
  const name = prefixed ? specifier.slice('node:'.length) : specifier;
  if (!prefixed && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(specifier))
    return 'only built-in modules and packages may be imported, not URLs (data:, file:, http:…)';
  if (!options.resolveOnly && /^(\.|\/|\\)/.test(name))
    return 'a skill is one module: it may import built-in modules and packages, not files';
  const base = name.startsWith('@')
    ? name.split('/').slice(0, 2).join('/')
    : (name.split('/')[0] ?? '');
  const blocked = blockedModuleOf(specifier);
  if (blocked && !blocked.staticImportFollowed)
    return `${blocked.name} is blocked: ${blocked.reason}`;
  if (/\.node$/i.test(name)) return 'native addons (.node files) are blocked: they run native code';
  if (nativeAddonLoaders.has(base)) return `${base} is blocked: it loads native addons`;
  if (blocked?.staticImportFollowed && options.dynamic && !options.resolveOnly)
    return `use the global ${blocked.name} (or a static import of it), so its uses can be checked`;
  return undefined;
}
