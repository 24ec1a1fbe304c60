/** Layer 1's rules for ES modules, one per file, in the order the runner calls them. */
import { codeEvaluatorNames } from './code-evaluators.ts';
import { commonjsArguments } from './commonjs-arguments.ts';
import type { BlockedRule } from './contract.ts';
import { destructuredProperties } from './destructured-properties.ts';
import { dynamicImport } from './dynamic-import.ts';
import { importMetaResolve } from './import-meta-resolve.ts';
import { memberAccess } from './member-access.ts';
import { moduleDeclarations } from './module-declarations.ts';
import { reflectLookups } from './reflect-lookups.ts';
import { rootIdentifiers } from './root-identifiers.ts';

export const blockedRules: readonly BlockedRule[] = [
  moduleDeclarations,
  dynamicImport,
  codeEvaluatorNames,
  commonjsArguments,
  rootIdentifiers,
  memberAccess,
  destructuredProperties,
  importMetaResolve,
  reflectLookups,
];
