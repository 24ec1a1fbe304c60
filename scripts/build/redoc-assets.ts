/**
 * ReDoc's standalone bundle, the one file of the `redoc` package the gateway serves (`/redoc`
 * loads it in the browser). Taken from redoc's published tarball instead of installing the
 * package: as a dependency, redoc brings 60 packages (React, MobX, styled-components, core-js,
 * swagger2openapi…, ~6,900 files and 39 MB) into every install and the image, none of which the
 * gateway loads.
 *
 * The tarball comes from the npm registry through `npm pack` (npm's cache, registry and proxy
 * settings, as `npm install` uses them), pinned by version and by the integrity the registry
 * published for it; a tarball that does not match is refused. Only the named files are taken
 * out of it. They are kept in gateway/assets/redoc/ (not in git: the build makes it once per
 * release, and copies it into dist/ each time).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';

export interface RedocRelease {
  version: string;
  /** The tarball's Subresource Integrity string (`sha512-…`), as the registry publishes it. */
  integrity: string;
}

/** The release the gateway serves (redoc 2.5.4, MIT). */
export const REDOC_RELEASE: RedocRelease = {
  version: '2.5.4',
  integrity:
    'sha512-M6jWhG1qoBnH6TFmzJnstyCZ87HmOY/UzDm78mHiYihEdlV/YcS9ogOo1NlElnJMeLsyxHFe2yFc4sNjHTrABQ==',
};

/** Taken from the tarball (its `package/` prefix left off), kept under the same names. */
export const REDOC_FILES = [
  'bundles/redoc.standalone.js',
  'bundles/redoc.standalone.js.LICENSE.txt', // the licences of what the bundle holds
  'LICENSE',
] as const;

const RELEASE_FILE = 'release.json';

/** Downloads `spec`'s tarball into `destination`; resolves with the tarball's path. */
export type PackTarball = (spec: string, destination: string) => Promise<string>;

export interface RedocAssetsOptions {
  /** Where the files are kept (gateway/assets/redoc). */
  dir: string;
  release?: RedocRelease;
  pack?: PackTarball;
}

/**
 * Makes `dir` hold the release's files; 'present' when it already did (nothing is fetched).
 * Rejects, leaving `dir` as it was, when the tarball cannot be had, does not match the
 * integrity, or lacks a file.
 */
export async function ensureRedocAssets(
  options: RedocAssetsOptions,
): Promise<'present' | 'fetched'> {
  const { dir, release = REDOC_RELEASE, pack = npmPack } = options;
  if (await holdsRelease(dir, release)) return 'present';

  const work = await mkdtemp(join(tmpdir(), 'hearth-redoc-'));
  try {
    const tarball = await pack(`redoc@${release.version}`, work);
    const found = integrityOf(await readFile(tarball));
    if (found !== release.integrity)
      throw new Error(
        `redoc ${release.version}: the tarball's integrity is ${found}, not the pinned ${release.integrity}`,
      );
    const staging = join(work, 'files');
    await mkdir(staging);
    const wanted = new Set<string>(REDOC_FILES.map((file) => `package/${file}`));
    await tar.x({
      file: tarball,
      cwd: staging,
      strict: true,
      filter: (path, entry) => wanted.has(path) && 'type' in entry && entry.type === 'File',
    });
    const missing = REDOC_FILES.filter((file) => !existsSync(join(staging, 'package', file)));
    if (missing.length > 0)
      throw new Error(`redoc ${release.version}: the tarball holds no ${missing.join(', ')}`);
    await writeFile(join(staging, 'package', RELEASE_FILE), `${JSON.stringify(release)}\n`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(join(dir, '..'), { recursive: true });
    await rename(join(staging, 'package'), dir);
    return 'fetched';
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function holdsRelease(dir: string, release: RedocRelease): Promise<boolean> {
  try {
    const kept = JSON.parse(await readFile(join(dir, RELEASE_FILE), 'utf8')) as RedocRelease;
    return (
      kept.version === release.version &&
      kept.integrity === release.integrity &&
      REDOC_FILES.every((file) => existsSync(join(dir, file)))
    );
  } catch {
    return false;
  }
}

function integrityOf(bytes: Buffer): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

/**
 * `npm pack <spec>`: the npm that runs this build (npm_execpath, when it is npm's own CLI and
 * not npx's or another package manager's) or the one on the PATH, which checks the download
 * against the registry's integrity itself and keeps it in its cache.
 */
const npmPack: PackTarball = (spec, destination) =>
  new Promise((resolve, reject) => {
    const args = ['pack', spec, '--json', '--prefer-offline', '--pack-destination', destination];
    const npmCli = process.env.npm_execpath;
    const child =
      npmCli && /(^|[/\\])npm-cli\.[cm]?js$/.test(npmCli)
        ? spawn(process.execPath, [npmCli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn('npm', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error) => reject(new Error(`npm pack ${spec}: ${error.message}`)));
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`npm pack ${spec} failed (exit ${code}): ${err.trim().slice(-500)}`));
        return;
      }
      try {
        const [packed] = JSON.parse(out) as { filename: string }[];
        if (!packed) throw new Error('no tarball named');
        resolve(join(destination, packed.filename));
      } catch (error) {
        reject(new Error(`npm pack ${spec}: unreadable answer (${(error as Error).message})`));
      }
    });
  });
