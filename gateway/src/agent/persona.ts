import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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

/**
 * The default system prompt, assembled from editable persona files in
 * `{data_dir}/workspace/` (SOUL.md, RULES.md), created with defaults on first start. Edits are
 * picked up on the next turn (files are re-read when their mtime changes, checked at most once
 * a second).
 */
export function createPersona(workspaceDir: string, now: () => number = Date.now) {
  const files = Object.keys(DEFAULTS);
  let cached = '';
  let signature = '';
  let checkedAt = -Infinity;

  return {
    async ensureFiles(): Promise<void> {
      await mkdir(workspaceDir, { recursive: true, mode: 0o700 });
      for (const name of files) {
        await writeFile(join(workspaceDir, name), DEFAULTS[name] ?? '', {
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
        files.map((name) => stat(join(workspaceDir, name)).catch(() => undefined)),
      );
      const next = stats.map((s) => `${s?.mtimeMs ?? 0}:${s?.size ?? 0}`).join('|');
      if (next === signature && cached !== '') return cached;
      const texts = await Promise.all(
        files.map((name) =>
          readFile(join(workspaceDir, name), 'utf8').catch(() => DEFAULTS[name] ?? ''),
        ),
      );
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
