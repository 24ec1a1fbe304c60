import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { VERSION } from '@hearth/gateway/version';
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import type { CommandContext, ProgramResult, RunProgram } from '../deps.ts';

/** How long `git ls-remote` may take to answer. */
const LS_REMOTE_TIMEOUT_MS = 20_000;
/** A release tag: vX.Y.Z (or X.Y.Z). Pre-releases and anything else are not offered. */
const RELEASE_TAG = /^refs\/tags\/(v?(\d+)\.(\d+)\.(\d+))$/;

/** -1, 0 or 1 comparing two x.y.z versions (a pre-release sorts before its release). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.replace(/^v/, '').split('-', 2);
    return { nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i += 1) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/** A word as the shell reads it back unchanged (quoted when it has anything but safe characters). */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The folder of this Hearth copy: the nearest one above the CLI holding cli-ink/ and package.json. */
export function appRoot(binPath: string): string | undefined {
  let dir: string;
  try {
    // `hearth` on the PATH is often a link to cli-ink/bin/hearth.js.
    dir = dirname(realpathSync(binPath));
  } catch {
    return undefined;
  }
  for (;;) {
    if (existsSync(join(dir, 'cli-ink')) && existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

const firstLine = (result: ProgramResult): string =>
  (result.error ?? (result.stderr.trim().split('\n').pop() || `exit ${result.code}`)).trim();

interface UpdateCheck {
  current: string;
  latest: string | null;
  update_available: boolean;
  source: 'git';
  checkout: string;
  remote: string;
  url: string;
  /** What updating takes, in this checkout; null when there is nothing newer. */
  command: string | null;
  /** Uncommitted changes in the checkout (they would get in the way of the checkout). */
  local_changes: boolean;
}

/**
 * Where this copy came from, and what its source says is the newest release. Hearth installs
 * from a git checkout (README, Quick start): the remote its branch tracks (else `origin`, else
 * its only remote) is asked for its tags with `git ls-remote`. Hearth has no npm package of its
 * own (the npm name `hearth` is an unrelated project), so a copy that is not a checkout cannot
 * be checked, and the command says so instead of guessing.
 */
async function checkGitSource(
  run: RunProgram,
  binPath: string,
  variables: Readonly<Record<string, string | undefined>>,
): Promise<UpdateCheck> {
  const root = appRoot(binPath);
  const git = (args: string[], timeoutMs = 10_000) =>
    run('git', root === undefined ? args : ['-C', root, ...args], {
      timeoutMs,
      // Never stop to ask for credentials: a remote that wants them cannot be checked.
      env: { ...variables, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' },
    });
  const notCheckout = (why: string) =>
    new CliError(
      `cannot check for updates: this copy of Hearth (${root ?? dirname(binPath)}) ${why}. ` +
        'Hearth is updated from the git repository it was cloned from, and it has no npm ' +
        'package of its own (the npm package "hearth" is an unrelated project): update it the ' +
        'way you installed it.',
    );
  if (root === undefined) throw notCheckout('is not inside a Hearth folder');
  const top = await git(['rev-parse', '--show-toplevel']);
  if (top.error !== undefined && /ENOENT/.test(top.error))
    throw new CliError(
      'cannot check for updates: git is not installed (it is needed to ask the repository Hearth was cloned from)',
    );
  if (top.code !== 0 || realpathSync(top.stdout.trim() || '/') !== realpathSync(root))
    throw notCheckout('is not a git checkout');

  const upstream = await git(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}']);
  const remotes = (await git(['remote'])).stdout.split('\n').filter((name) => name !== '');
  const tracked = upstream.code === 0 ? upstream.stdout.trim().split('/')[0] : undefined;
  const remote =
    tracked !== undefined && remotes.includes(tracked)
      ? tracked
      : remotes.includes('origin')
        ? 'origin'
        : remotes.length === 1
          ? remotes[0]
          : undefined;
  if (remote === undefined)
    throw new CliError(
      `cannot check for updates: the checkout ${root} has ${remotes.length === 0 ? 'no git remote' : `several git remotes (${remotes.join(', ')}) and none is tracked or named origin`} to ask for releases`,
    );
  const url = (await git(['remote', 'get-url', remote])).stdout.trim();

  const listed = await git(['ls-remote', '--tags', '--refs', remote], LS_REMOTE_TIMEOUT_MS);
  if (listed.code !== 0)
    throw new CliError(
      `cannot check for updates: git could not ask ${remote} (${url}) for its release tags` +
        `${listed.code === null && listed.error === undefined ? ` within ${LS_REMOTE_TIMEOUT_MS / 1000} s` : ''}: ${firstLine(listed)}`,
    );
  const releases = listed.stdout
    .split('\n')
    .map((line) => RELEASE_TAG.exec(line.split('\t')[1]?.trim() ?? '')?.[1])
    .filter((tag): tag is string => tag !== undefined)
    .sort((a, b) => compareVersions(b, a));
  const newest = releases[0] ?? null;
  const available = newest !== null && compareVersions(newest, VERSION) > 0;
  const dirty = (await git(['status', '--porcelain', '--untracked-files=no'])).stdout.trim() !== '';
  return {
    current: VERSION,
    latest: newest?.replace(/^v/, '') ?? null,
    update_available: available,
    source: 'git',
    checkout: root,
    remote,
    url,
    command: available
      ? `cd ${shellWord(root)} && git fetch ${shellWord(remote)} --tags && git checkout ${newest} && npm ci && npm run build`
      : null,
    local_changes: dirty,
  };
}

/**
 * `hearth update [--check] [--json]`: asks the source this copy was installed from for its
 * newest release and says exactly what updating would take. It never changes anything by
 * itself: an update is always the user's own act.
 */
export function registerUpdate(program: Command, ctx: CommandContext): void {
  program
    .command('update')
    .description(
      'ask the git repository Hearth was cloned from for a newer release (never updates by itself)',
    )
    .option('--check', 'only say whether there is one')
    .option('--json', 'print {current, latest, update_available, remote, url, command, …} as JSON')
    .action(async (options: { check?: boolean; json?: boolean }) => {
      const result = await checkGitSource(
        ctx.deps.runProgram,
        ctx.deps.binPath,
        ctx.deps.env.variables,
      );
      if (options.json) return ctx.deps.output.out(JSON.stringify(result, null, 2));
      const where = `${result.remote} (${result.url})`;
      if (result.latest === null)
        return ctx.deps.output.out(
          `${where} has no release tags (vX.Y.Z): there is nothing to update to from Hearth ${VERSION}.`,
        );
      if (!result.update_available)
        return ctx.deps.output.out(`Hearth ${VERSION} is the newest release at ${where}.`);
      ctx.deps.output.out(
        [
          `Hearth ${result.latest} is available at ${where} (this is ${VERSION}).`,
          ...(options.check
            ? []
            : [
                `To update this checkout, run:\n  ${result.command}`,
                ...(result.local_changes
                  ? [
                      `The checkout has uncommitted changes: git checkout keeps them or refuses; commit or stash them first.`,
                    ]
                  : []),
                'then restart the gateway (hearth stop; hearth start).',
              ]),
        ].join('\n'),
      );
    });
}
