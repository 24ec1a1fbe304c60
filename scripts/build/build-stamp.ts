/**
 * Whether dist/ is the build of the sources as they are now: the build records a fingerprint
 * of its inputs and of what it wrote in dist/.build-stamp.json, and `npm start`, `./hearth`
 * and `node scripts/build.ts --if-changed` compare it with the checkout before building again.
 *
 * Inputs are every file under the folders the build reads (the compiled workspaces, the web
 * client, the client package, the build scripts), the root manifests and tsconfigs, the lock
 * file and npm's record of what is installed (node_modules/.package-lock.json, rewritten by
 * every install), so any change to a source, a config or a dependency means a rebuild. Left
 * out are what the build itself writes (dist/ folders, the generated client types), what no
 * build reads (`*.test.ts(x)`, node_modules/, dot files, logs, test scratch folders).
 *
 * Inputs are compared by content: the stamp keeps a hash of every input's bytes, and a cheap
 * signature of their sizes and modification times, so an unchanged checkout is recognised
 * from `stat` alone and a touched but unchanged file costs one read of the inputs, not a
 * build. The outputs (dist/ and web/dist/) are compared by name, type, size and modification
 * time: a deleted or edited output means a rebuild.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STAMP_FILE = 'dist/.build-stamp.json';

/** Folders whose files are all inputs (apart from the exclusions below). */
const INPUT_FOLDERS = ['common', 'gateway', 'cli-ink', 'web', 'client', 'scripts'];
/** Single input files at the root. */
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'tsconfig.build.json',
  'tsconfig.json',
  'node_modules/.package-lock.json',
];
/** What the build writes inside the input folders (scripts/generate-client.ts). */
const GENERATED_INPUTS = new Set(['client/src/openapi.ts']);
/** The build's outputs. */
const OUTPUT_FOLDERS = ['dist', 'web/dist'];

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage']);
const SKIPPED_FILE = /(\.test\.tsx?|\.log|\.tsbuildinfo)$/;

export interface BuildStamp {
  /** sha256 over every input's path and bytes. */
  inputs: string;
  /** sha256 over every input's path, size and modification time (the fast check). */
  inputStats: string;
  /** sha256 over every output's path, type, size and modification time. */
  outputs: string;
}

export type Freshness = { fresh: true } | { fresh: false; reason: string };

/** The fingerprint of the inputs as they are now (taken before a build starts). */
export function inputFingerprint(root: string): Pick<BuildStamp, 'inputs' | 'inputStats'> {
  const files = inputFiles(root);
  return { inputs: contentHash(root, files), inputStats: statHash(root, files) };
}

/** Records a finished build: `inputs` as taken before it started, the outputs as they are now. */
export function writeStamp(root: string, inputs: Pick<BuildStamp, 'inputs' | 'inputStats'>): void {
  const stamp: BuildStamp = { ...inputs, outputs: outputHash(root) };
  writeFileSync(join(root, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
}

/** Whether dist/ is the build of the checkout at `root` as it is now, and if not, why. */
export function freshness(root: string): Freshness {
  const stamp = readStamp(root);
  if (stamp === undefined) return { fresh: false, reason: 'no finished build in dist/' };
  if (outputHash(root) !== stamp.outputs) return { fresh: false, reason: 'dist/ was changed' };
  const files = inputFiles(root);
  const inputStats = statHash(root, files);
  if (inputStats === stamp.inputStats) return { fresh: true };
  if (contentHash(root, files) !== stamp.inputs) return { fresh: false, reason: 'sources changed' };
  // Touched, not changed: remember the new times so that the next check is a stat again.
  writeFileSync(join(root, STAMP_FILE), `${JSON.stringify({ ...stamp, inputStats }, null, 2)}\n`);
  return { fresh: true };
}

function readStamp(root: string): BuildStamp | undefined {
  try {
    const stamp = JSON.parse(readFileSync(join(root, STAMP_FILE), 'utf8')) as Partial<BuildStamp>;
    const valid = [stamp.inputs, stamp.inputStats, stamp.outputs].every(
      (value) => typeof value === 'string',
    );
    return valid ? (stamp as BuildStamp) : undefined;
  } catch {
    return undefined;
  }
}

/** The input files that exist, relative to `root`, sorted. */
function inputFiles(root: string): string[] {
  const files: string[] = [];
  for (const folder of INPUT_FOLDERS) walk(root, folder, files);
  for (const file of INPUT_FILES) if (statOf(root, file) !== undefined) files.push(file);
  return files.filter((file) => !GENERATED_INPUTS.has(file)).sort();
}

function walk(root: string, folder: string, files: string[]): void {
  let entries;
  try {
    entries = readdirSync(`${root}/${folder}`, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = `${folder}/${entry.name}`;
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) walk(root, path, files);
    } else if (!SKIPPED_FILE.test(entry.name)) {
      files.push(path);
    }
  }
}

function contentHash(root: string, files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    // A link is compared by where it points (a link to a folder has no bytes to read).
    const bytes = statOf(root, file)?.isSymbolicLink()
      ? Buffer.from(`->${readlinkSync(join(root, file))}`)
      : readFileSync(join(root, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

function statHash(root: string, files: readonly string[]): string {
  // One string hashed once: a hash update per file cost more than the stat calls.
  let text = '';
  for (const file of files) {
    const stat = statOf(root, file);
    text += `${file}\0${stat?.size}\0${stat?.mtimeMs}\n`;
  }
  return createHash('sha256').update(text).digest('hex');
}

/** Every entry under the output folders (links not followed, the stamp itself left out). */
function outputHash(root: string): string {
  let text = '';
  const visit = (path: string): void => {
    const stat = statOf(root, path);
    if (stat === undefined) {
      text += `${path}\0missing\n`;
    } else if (stat.isDirectory()) {
      text += `${path}/\n`;
      for (const name of readdirSync(`${root}/${path}`).sort()) {
        if (`${path}/${name}` !== STAMP_FILE) visit(`${path}/${name}`);
      }
    } else if (stat.isSymbolicLink()) {
      text += `${path}\0->${readlinkSync(`${root}/${path}`)}\n`;
    } else {
      text += `${path}\0${stat.size}\0${stat.mtimeMs}\n`;
    }
  };
  for (const folder of OUTPUT_FOLDERS) visit(folder);
  return createHash('sha256').update(text).digest('hex');
}

/** A path's own status (links not followed), undefined when it does not exist. */
function statOf(root: string, path: string) {
  // A template rather than path.join, and no exception for a missing path: this runs once per
  // input and output (~2,500 times) before every `./hearth` command.
  return lstatSync(`${root}/${path}`, { throwIfNoEntry: false });
}
