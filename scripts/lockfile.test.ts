/**
 * `npm install` on a fresh clone must leave the tracked package-lock.json as it is. npm records
 * `hasInstallScript` for every package with an install step (a preinstall, install or
 * postinstall script, or a binding.gyp that npm builds implicitly); a lock written without it
 * (by an install with scripts skipped) is rewritten by the next plain `npm install`.
 *
 * Each package from the registry is locked with the address of its tarball (`resolved`): without
 * it, `npm ci` asks the registry for every package's document first to find the tarball (~980
 * requests, 230 MB more on a clean install; drizzle-orm's alone is 51 MB). A user-level
 * `omit-lockfile-registry-resolved=true` would drop them; the project's .npmrc keeps them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  hasInstallScript?: boolean;
  link?: boolean;
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Whether an installed package has a step npm runs at install time. */
function hasInstallStep(folder: string): boolean {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const scripts = manifest.scripts ?? {};
  return (
    ['preinstall', 'install', 'postinstall'].some((name) => scripts[name] !== undefined) ||
    existsSync(join(folder, 'binding.gyp'))
  );
}

describe('package-lock.json', () => {
  it('marks exactly the installed packages that have an install step (hasInstallScript)', () => {
    const wrong: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path.includes('node_modules/') || entry.link === true) continue;
      if (!existsSync(join(path, 'package.json'))) continue; // optional, not for this platform
      if (hasInstallStep(path) !== (entry.hasInstallScript === true))
        wrong.push(`${path}: hasInstallScript should be ${hasInstallStep(path)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('locks every package from the registry with its tarball address and integrity', () => {
    const unlocated = Object.entries(lock.packages)
      .filter(([path, entry]) => path.includes('node_modules/') && entry.link !== true)
      .filter(
        ([, entry]) => !/^https:\/\/registry\.npmjs\.org\/.+\.tgz$/.test(entry.resolved ?? ''),
      )
      .map(([path]) => path);
    expect(unlocated).toEqual([]);
    const unverified = Object.entries(lock.packages)
      .filter(([, entry]) => entry.resolved?.startsWith('https:') && entry.integrity === undefined)
      .map(([path]) => path);
    expect(unverified).toEqual([]);
  });

  it("holds one copy of express's mime-types (each copy parses mime-db at start, ~10 ms)", () => {
    // npm placed mime-types@2 (autocannon's) at the root and nested a copy of 3 under each of
    // express, accepts, send and type-is; the lock holds 3 at the root and nests 2 instead.
    const copies = Object.entries(lock.packages)
      .filter(([path]) => /(^|\/)node_modules\/mime-(types|db)$/.test(path))
      .filter(([, entry]) => entry.dev !== true)
      .map(([path]) => path);
    expect(copies.sort()).toEqual(['node_modules/mime-db', 'node_modules/mime-types']);
  });
});
