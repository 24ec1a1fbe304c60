/**
 * Splits a streamed reply into sentences as the text arrives, so speech can start after the
 * first sentence instead of after the whole reply. A sentence ends at `.`, `!`, `?`, `…` or a
 * line break followed by white space; decimals ("3.5") and common abbreviations do not end one.
 * Markdown symbols that would be read out loud are dropped.
 */
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'vs', 'etc', 'e.g', 'i.e', 'no']);
/** A run-on "sentence" longer than this is spoken anyway, at a space. */
const MAX_SENTENCE_CHARS = 400;

export function speakable(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_#>|~]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function createSentenceSplitter() {
  let buffer = '';

  function take(final: boolean): string[] {
    const out: string[] = [];
    let start = 0;
    for (let index = 0; index < buffer.length; index += 1) {
      const char = buffer[index] ?? '';
      const next = buffer[index + 1];
      const boundary =
        (char === '\n' && next === '\n') ||
        ('.!?…'.includes(char) && next !== undefined && /\s/.test(next));
      if (!boundary) continue;
      const candidate = buffer.slice(start, index + 1);
      const lastWord = /([\w.]+)\.$/.exec(candidate)?.[1]?.toLowerCase();
      if (char === '.' && lastWord && ABBREVIATIONS.has(lastWord)) continue;
      out.push(candidate);
      start = index + 1;
    }
    buffer = buffer.slice(start);
    if (buffer.length > MAX_SENTENCE_CHARS) {
      const cut = buffer.lastIndexOf(' ', MAX_SENTENCE_CHARS);
      const at = cut > 0 ? cut : MAX_SENTENCE_CHARS;
      out.push(buffer.slice(0, at));
      buffer = buffer.slice(at);
    }
    if (final) {
      out.push(buffer);
      buffer = '';
    }
    return out.map(speakable).filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
  }

  return {
    /** Adds streamed text; returns the sentences it completed. */
    push(text: string): string[] {
      buffer += text;
      return take(false);
    },
    /** The rest of the text, at the end of the reply. */
    end(): string[] {
      return take(true);
    },
  };
}
