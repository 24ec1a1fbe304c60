import { HearthError } from '../errors.ts';
import type { Compactor, Conversation, MemoryService } from '../memory/ports.ts';
import type { SettingsService } from '../settings/ports.ts';

export interface SlashCommandDeps {
  settings: SettingsService;
  memory: MemoryService;
  compactor: Compactor;
  /** `/node <name> <message>`: one reply from an orchestrator node (absent: no orchestrator). */
  delegateToNode?: (node: string, message: string) => Promise<string>;
}

export interface SlashContext {
  sessionId: string;
  conversation: Conversation;
}

export const SLASH_HELP = [
  'Commands:',
  '/model <provider> | /model auto — force a provider, or route automatically',
  '/think <off|low|medium|high|xhigh|max> — reasoning effort',
  '/privacy on|off — send every request to the local model (bare /privacy shows the state)',
  '/compact — summarise this conversation now',
  '/forget <keyword> — show memories that match; /forget <keyword> confirm deletes them',
  '/tag <name> — tag this conversation’s memories; /tags lists the tags',
  '/node <name> <message> — hand the message to an orchestrator node (one reply from its model)',
].join('\n');

/**
 * `/forget <keyword> [confirm]`: `confirm` is the last word when whitespace precedes it. Read
 * with string operations: a regex such as `/\s+confirm$/` takes quadratic time on a message of
 * whitespace.
 */
export function parseForgetArgument(argument: string): { keyword: string; confirm: boolean } {
  const trimmed = argument.trimEnd();
  const before = trimmed.slice(0, -'confirm'.length);
  const confirm =
    trimmed.slice(-'confirm'.length).toLowerCase() === 'confirm' && before !== before.trimEnd();
  return { keyword: (confirm ? before : trimmed).trim(), confirm };
}

function describeRouting(settings: SettingsService): string {
  const r = settings.runtime();
  return `Model: ${r.provider ?? (r.model ? `pinned to ${r.model}` : 'automatic routing')}; thinking: ${r.thinking ?? 'provider default'}; privacy mode: ${r.privacy_mode ? 'on' : 'off'}.`;
}

function message(error: unknown): string {
  return error instanceof HearthError
    ? error.message.replace(/^body\.\w+: /, '')
    : 'That did not work.';
}

/**
 * Handles a chat message that starts with `/` before any model is called. Returns the reply,
 * or undefined when the text is not a command (for example a path like `/etc/hosts is…`).
 */
export async function handleSlashCommand(
  text: string,
  context: SlashContext,
  deps: SlashCommandDeps,
): Promise<string | undefined> {
  const match = /^\/([a-z]+)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!match) return undefined;
  const command = (match[1] ?? '').toLowerCase();
  const argument = (match[2] ?? '').trim();

  switch (command) {
    case 'model': {
      if (argument === '') return describeRouting(deps.settings);
      try {
        deps.settings.applyModel({ provider: argument.toLowerCase() === 'auto' ? null : argument });
      } catch (error) {
        return `${message(error)}. Try /model auto or a provider such as claude, gpt, gemini, local.`;
      }
      return describeRouting(deps.settings);
    }
    case 'think': {
      if (argument === '') return describeRouting(deps.settings);
      try {
        deps.settings.applyModel({ thinking: argument.toLowerCase() });
      } catch (error) {
        return `${message(error)}.`;
      }
      return describeRouting(deps.settings);
    }
    case 'privacy': {
      const value = argument.toLowerCase();
      if (value === 'on' || value === 'off')
        deps.settings.applyModel({ privacy_mode: value === 'on' });
      else if (value !== '') return 'Use /privacy on, /privacy off, or /privacy to see the state.';
      const on = deps.settings.runtime().privacy_mode;
      return on
        ? 'Privacy mode is on: every request goes to the local model.'
        : 'Privacy mode is off.';
    }
    case 'compact': {
      try {
        const compacted = await deps.compactor.compact(context.sessionId, context.conversation);
        return compacted
          ? 'Done: the conversation so far is summarised and saved to memory.'
          : 'Nothing to compact yet.';
      } catch (error) {
        return `Compaction failed; the conversation is unchanged (${error instanceof Error ? error.message : String(error)}).`;
      }
    }
    case 'forget': {
      const { keyword, confirm } = parseForgetArgument(argument);
      if (keyword === '')
        return 'Use /forget <keyword> to see matching memories, then /forget <keyword> confirm.';
      if (confirm) {
        const removed = await deps.memory.forget(context.sessionId, keyword);
        return `Forgot ${removed} ${removed === 1 ? 'memory' : 'memories'} matching "${keyword}".`;
      }
      const preview = await deps.memory.forgetPreview(context.sessionId, keyword);
      if (preview.count === 0) return `No memories match "${keyword}".`;
      return [
        `${preview.count} ${preview.count === 1 ? 'memory matches' : 'memories match'} "${keyword}":`,
        ...preview.snippets.map((s) => `- ${s}`),
        `Send /forget ${keyword} confirm to delete ${preview.count === 1 ? 'it' : 'them'}.`,
      ].join('\n');
    }
    case 'tag': {
      if (!/^[\p{L}\p{N}_-]{1,40}$/u.test(argument))
        return 'Use /tag <name> (letters, digits, - and _).';
      const tagged = await deps.memory.tag(context.sessionId, argument);
      return `Tagged ${tagged} ${tagged === 1 ? 'memory' : 'memories'} with "${argument}".`;
    }
    case 'tags': {
      const tags = Object.entries(await deps.memory.tags(context.sessionId));
      if (tags.length === 0) return 'No tags yet. Use /tag <name>.';
      return tags.map(([tag, count]) => `${tag} (${count})`).join(', ');
    }
    case 'node': {
      const [node = '', ...words] = argument.split(/\s+/);
      const task = words.join(' ').trim();
      if (!deps.delegateToNode) return 'There is no orchestrator here.';
      if (node === '' || task === '') return 'Use /node <name> <message>.';
      try {
        return await deps.delegateToNode(node, task);
      } catch (error) {
        return `${error instanceof HearthError ? error.message : 'The node did not answer'}.`;
      }
    }
    case 'help':
      return SLASH_HELP;
    default:
      return `Unknown command /${command}.\n${SLASH_HELP}`;
  }
}
