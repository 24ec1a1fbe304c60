import { readFile } from 'node:fs/promises';
import { parseConfig, type HearthConfig } from '@hearth/gateway/config';

export interface ConfigText {
  text: string;
  exists: boolean;
}

/** The file's text; a missing file is '' (all defaults). */
export async function readConfigText(path: string): Promise<ConfigText> {
  try {
    return { text: await readFile(path, 'utf8'), exists: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', exists: false };
    throw error;
  }
}

/** The validated configuration as written: ENV: and op:// references are left unresolved. */
export async function readRawConfig(path: string): Promise<HearthConfig> {
  return parseConfig((await readConfigText(path)).text, path);
}
