import { createHash } from 'node:crypto';
import { access, chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';

const DEFAULTS: Record<string, string> = {
  'SOUL.md': `# Soul

You are Hearth, a personal assistant running on the user's own machine.
You are warm, direct and practical. You remember what the user tells you and use it.
Answer briefly unless asked for detail.
`,
  'RULES.md': `# Rules

- Be honest about what you do not know; never invent facts about the user.
- Use tools when they help; say what a tool did when it matters.
- Shell and browser commands may need the user's approval; explain why you need one.
- Keep the user's private data private.
`,
};

export interface PersonaOptions {
  /** `{data_dir}/persona`: where the persona files live, outside the tools' workspace. */
  dir: string;
  /**
   * `{data_dir}/workspace`, where earlier versions kept them: files found there are moved once,
   * on the first start that creates `dir`.
   */
  legacyDir: string;
  logger: Logger;
  now?: () => number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The default system prompt, assembled from editable persona files in `{data_dir}/persona/`
 * (SOUL.md, RULES.md), created with defaults on first start. Not in the workspace: that is the
 * default directory of every tool command, where an approved `cp`, `sed -i` or `git checkout`
 * would rewrite the system prompt of every later session. Edits are picked up on the next turn
 * (files are re-read when their mtime or size changes, checked at most once a second), and each
 * change is logged with the file's new SHA-256.
 */
export function createPersona(options: PersonaOptions) {
  const { dir, legacyDir, logger } = options;
  const now = options.now ?? Date.now;
  const files = Object.keys(DEFAULTS);
  let cached = '';
  let signature = '';
  let checkedAt = -Infinity;
  /** The SHA-256 of each file's text as last loaded; empty until the first load. */
  const hashes = new Map<string, string>();

  async function migrate(): Promise<void> {
    for (const name of files) {
      const from = join(legacyDir, name);
      if (!(await exists(from))) continue;
      await rename(from, join(dir, name));
      logger.warn(
        { file: name, from, to: join(dir, name) },
        'persona file moved out of the tools’ workspace',
      );
    }
  }

  function recordHashes(texts: readonly string[]): void {
    files.forEach((name, index) => {
      const hash = sha256(texts[index] ?? '');
      const previous = hashes.get(name);
      if (previous === undefined)
        logger.info({ file: join(dir, name), sha256: hash }, 'persona loaded');
      else if (previous !== hash)
        logger.warn({ file: join(dir, name), sha256: hash, previous }, 'persona changed');
      hashes.set(name, hash);
    });
  }

  return {
    /** Creates `dir` (0700), moves files from the old location once, writes missing defaults. */
    async ensureFiles(): Promise<void> {
      const created = !(await exists(dir));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
      if (created) await migrate();
      for (const name of files) {
        await writeFile(join(dir, name), DEFAULTS[name] ?? '', {
          flag: 'wx',
          mode: 0o600,
        }).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
      }
    },
    async systemPrompt(): Promise<string> {
      if (now() - checkedAt < 1_000 && cached !== '') return cached;
      checkedAt = now();
      const stats = await Promise.all(
        files.map((name) => stat(join(dir, name)).catch(() => undefined)),
      );
      const next = stats.map((s) => `${s?.mtimeMs ?? 0}:${s?.size ?? 0}`).join('|');
      if (next === signature && cached !== '') return cached;
      const texts = await Promise.all(
        files.map((name) => readFile(join(dir, name), 'utf8').catch(() => DEFAULTS[name] ?? '')),
      );
      recordHashes(texts);
      cached = texts
        .map((t) => t.trim())
        .filter(Boolean)
        .join('\n\n');
      signature = next;
      return cached;
    },
  };
}

export type Persona = ReturnType<typeof createPersona>;
