/** The scanner's rules for ES modules, one per file, in the order the runner calls them. */
import { blockedModule } from './blocked-module.ts';
import { charcodeChain } from './charcode-chain.ts';
import { codeLoaders } from './code-loaders.ts';
import { commentInjection } from './comment-injection.ts';
import { computedGlobal } from './computed-global.ts';
import type { ScanRule } from './contract.ts';
import { decoders } from './decoders.ts';
import { dynamicImport } from './dynamic-import.ts';
import { environment } from './environment.ts';
import { escapedString } from './escaped-string.ts';
import { evalRule } from './eval.ts';
import { fetchAndEval } from './fetch-and-eval.ts';
import { fileAccess } from './file-access.ts';
import { functionConstructor } from './function-constructor.ts';
import { globalOverride } from './global-override.ts';
import { hostInfo } from './host-info.ts';
import { network } from './network.ts';
import { processBinding } from './process-binding.ts';
import { remoteImport } from './remote-import.ts';
import { requireAccess } from './require-access.ts';
import { selfCopy } from './self-copy.ts';
import { splitName } from './split-name.ts';
import { stdioPipe } from './stdio-pipe.ts';
import { stringContent } from './string-content.ts';
import { worker } from './worker.ts';

export const jsScanRules: readonly ScanRule[] = [
  commentInjection,
  remoteImport,
  blockedModule,
  dynamicImport,
  requireAccess,
  evalRule,
  functionConstructor,
  worker,
  processBinding,
  fetchAndEval,
  stringContent,
  escapedString,
  charcodeChain,
  computedGlobal,
  splitName,
  globalOverride,
  environment,
  network,
  fileAccess,
  codeLoaders,
  decoders,
  hostInfo,
  stdioPipe,
  selfCopy,
];
