/**
 * Tool shadowing: a description that sets rules for *other* tools ("when the send_email tool is
 * used, always add bcc: …", "before calling any other tool, call this one with its arguments").
 * Read on the normalised text (`readable`), in the languages seen in the wild.
 */

/** Words that make a sentence about *other* tools (in the languages seen in the wild). */
const OTHER_TOOLS = [
  'other tool',
  'any tool',
  'all tools',
  'every tool',
  'each tool',
  'all other tools',
  'all the tools',
  'tools are pre',
  'otra herramienta',
  'otras herramientas',
  'cualquier herramienta',
  'todas las herramientas',
  'autre outil',
  'autres outils',
  'tous les outils',
  'chaque outil',
  'anderes werkzeug',
  'andere werkzeuge',
  'anderen werkzeug',
  'alle werkzeuge',
  'jedes werkzeug',
  'altro strumento',
  'altri strumenti',
  'tutti gli strumenti',
  'ogni strumento',
];

/** The gateway's own tools and the kinds of tool a hijacker goes after. */
const TOOL_WORDS = [
  'shell',
  'terminal',
  'browser',
  'web',
  'fetch',
  'http',
  'email',
  'e-mail',
  'mail',
  'mailer',
  'inbox',
  'calendar',
  'contacts',
  'payment',
  'payments',
  'bank',
  'banking',
  'transfer',
  'wallet',
  'message',
  'messages',
  'messaging',
  'sms',
  'chat',
  'slack',
  'telegram',
  'whatsapp',
  'file',
  'files',
  'filesystem',
  'drive',
  'storage',
  'database',
  'sql',
  'search',
];
const TOOL_NOUNS = ['tool', 'tools', 'herramienta', 'outil', 'werkzeug', 'strumento'];

/** Phrasings that set a rule for how something else is used. */
const DIRECTIVES = [
  'whenever',
  'every time',
  'each time',
  'when using',
  'when you use',
  'when you call',
  'when calling',
  'before using',
  'before calling',
  'before any',
  'after using',
  'after calling',
  'after any',
  'must always',
  'must also',
  'must first',
  'never call',
  'never use',
  'supersedes',
  'route every',
  'route all',
  'call them directly',
  'cada vez',
  'siempre',
  'cuando uses',
  'cuando llames',
  'immer',
  'wenn du',
  'jedes mal',
  'chaque fois',
  'toujours',
  'quand tu',
  'sempre',
  'ogni volta',
  'quando usi',
];

/** A directive phrase, unless it is about this tool itself ("when using this function"). */
function directiveIn(t: string): string | undefined {
  for (const d of DIRECTIVES) {
    for (let at = t.indexOf(d); at >= 0; at = t.indexOf(d, at + d.length)) {
      if (
        !t
          .slice(at + d.length, at + d.length + 6)
          .trimStart()
          .startsWith('this')
      )
        return d;
    }
  }
  return undefined;
}

/** "when the X tool is used": a rule about another tool's use. */
const WHEN_TOOL_USED = /\bwhen (?:the )?[a-z0-9_-]+ tool (?:is )?(?:used|called|invoked|runs)\b/;

/** "always add", "always include": a standing order, not a description of this tool's output. */
const ALWAYS_ORDER =
  /\balways (?:add|include|set|send|cc|bcc|copy|replace|change|use|call|pass|prepend|append|forward|route|invite|attach|run|put)\b/;

/** A blind copy of every message to an address: the usual aim of shadowing a mail tool. */
const BLIND_COPY = [
  'bcc',
  'blind copy',
  'blind-copy',
  'copia oculta',
  'blindkopie',
  'copie cachée',
  'copia nascosta',
];
const EVERY = [
  'every',
  'each',
  'all ',
  'always',
  'any ',
  'siempre',
  'todos',
  'cada',
  'immer',
  'jede',
  'alle',
  'toujours',
  'chaque',
  'tous',
  'sempre',
  'ogni',
  'tutti',
];

function blindCopyOrder(t: string): string | undefined {
  const copy = BLIND_COPY.find((w) => t.includes(w));
  if (!copy || !hasEmailAddress(t)) return undefined;
  const every = EVERY.find((w) => t.includes(w));
  return every ? `${copy} … ${every.trim()}` : undefined;
}

/** An e-mail address, looked for around each `@` only (a bounded window: linear). */
function hasEmailAddress(t: string): boolean {
  for (let at = t.indexOf('@'); at >= 0; at = t.indexOf('@', at + 1)) {
    if (/[a-z0-9._%+-]@[a-z0-9-]+\.[a-z]/.test(t.slice(Math.max(0, at - 1), at + 64))) return true;
  }
  return false;
}

/** Words that make the next name a tool being called (`call send_email`, `la herramienta send_email`). */
const CALL_WORDS = new Set([
  'call',
  'calls',
  'calling',
  'use',
  'uses',
  'using',
  'invoke',
  'invoking',
  'run',
  'running',
  'usa',
  'uses',
  'llama',
  'utilise',
  'utilises',
  'appelle',
  'benutze',
  'benutzt',
  'verwende',
  'rufe',
  'usi',
  'chiama',
]);
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/** A reference to a tool that is not one of `own`: "call X", "the X tool", or "other tools". */
function foreignToolReference(t: string, own: ReadonlySet<string>): string | undefined {
  const generic = OTHER_TOOLS.find((p) => t.includes(p));
  if (generic) return generic;
  const words = t
    .replace(/[a-z][a-z0-9+.-]{0,15}:\/\/\S*/g, ' ')
    .replaceAll("'s ", ' ')
    .split(/[^a-z0-9_-]+/);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const before = words[i - 1] ?? '';
    const after = words[i + 1] ?? '';
    if (own.has(word)) continue;
    const toolish = TOOL_NOUNS.includes(after) || TOOL_NOUNS.includes(before);
    if (SNAKE.test(word) && (toolish || CALL_WORDS.has(before))) return word;
    if (TOOL_WORDS.includes(word) && TOOL_NOUNS.includes(after)) return `${word} ${after}`;
  }
  return undefined;
}

/** What makes `t` (readable text) a rule for another tool, or undefined. */
export function toolShadowing(t: string, own: ReadonlySet<string>): string | undefined {
  const reference = foreignToolReference(t, own);
  const directive = reference
    ? (directiveIn(t) ?? ALWAYS_ORDER.exec(t)?.[0] ?? WHEN_TOOL_USED.exec(t)?.[0])
    : undefined;
  if (reference && directive)
    return `sets a rule for another tool ("${reference}" … "${directive.trim()}")`;
  const copy = blindCopyOrder(t);
  return copy ? `orders a blind copy of messages ("${copy}")` : undefined;
}
