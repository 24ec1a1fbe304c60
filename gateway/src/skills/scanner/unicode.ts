/**
 * Characters that make code or text read differently from how it runs or what the model gets:
 * bidirectional controls (Trojan Source, CVE-2021-42574), Unicode tag characters (ASCII
 * smuggling), runs of variation selectors (bytes hidden behind an emoji), invisible or
 * look-alike characters in identifiers. Language-neutral: each language pass hands over its
 * string literals and identifiers. Every test is a linear pass over code points.
 */
import type { FindingSink } from './findings.ts';

/** Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder what a reader sees. */
export function isBidiControl(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

const isTag = (code: number): boolean => code >= 0xe0000 && code <= 0xe007f;
const isVariationSelector = (code: number): boolean =>
  (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);

/** Right-to-left letters: Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms. */
function isRtlLetter(code: number): boolean {
  return (
    (code >= 0x0590 && code <= 0x08ff) ||
    (code >= 0xfb1d && code <= 0xfdff) ||
    (code >= 0xfe70 && code <= 0xfeff)
  );
}

export function countBidi(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (isBidiControl(text.charCodeAt(i))) n++;
  return n;
}

/**
 * A string literal where raw bidi controls have a job: it holds right-to-left letters and
 * every embedding or override is closed by U+202C and every isolate by U+2069 inside it.
 */
export function isBalancedRtlText(text: string): boolean {
  let rtl = false;
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isRtlLetter(c)) rtl = true;
    if ((c >= 0x202a && c <= 0x202b) || (c >= 0x202d && c <= 0x202e)) open.push(0x202c);
    else if (c >= 0x2066 && c <= 0x2068) open.push(0x2069);
    else if (c === 0x202c || c === 0x2069) {
      if (open.pop() !== c) return false;
    }
  }
  return rtl && open.length === 0;
}

/**
 * The text spelled by tag characters outside an emoji subdivision flag (🏴 followed by tags
 * and the cancel tag, e.g. the flag of England), or '' when there is none.
 */
export function hiddenTagText(text: string): string {
  const out: string[] = [];
  let inFlag = false;
  let previous = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (isTag(code)) {
      if (!isTag(previous)) inFlag = previous === 0x1f3f4;
      if (!inFlag) out.push(code === 0xe007f ? '' : String.fromCharCode(code - 0xe0000));
      if (code === 0xe007f) inFlag = false;
    }
    previous = code;
  }
  return out.join('');
}

/** Whether two or more variation selectors follow each other (an emoji needs at most one). */
export function hasVariationRun(text: string): boolean {
  let run = 0;
  for (const ch of text) {
    run = isVariationSelector(ch.codePointAt(0)!) ? run + 1 : 0;
    if (run >= 2) return true;
  }
  return false;
}

/** Characters that show as nothing in an identifier: joiners, fillers, zero-width spaces, inherent vowels, variation selectors. */
function isInvisibleInName(code: number): boolean {
  return (
    code === 0x200b ||
    code === 0x200c ||
    code === 0x200d ||
    code === 0x2060 ||
    code === 0xfeff ||
    code === 0x3164 ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0xffa0 ||
    code === 0x034f ||
    code === 0x17b4 ||
    code === 0x17b5 ||
    (code >= 0x180b && code <= 0x180f) ||
    isVariationSelector(code)
  );
}

/**
 * Cyrillic and Greek letters drawn like Latin ones (after Unicode's confusables table): a name
 * mixing them with Latin letters reads as another name. Greek letters used as maths symbols
 * (π, λ, Δ, μ, σ) are not in the list.
 */
const LATIN_LOOKALIKES = new Map<string, string>(
  Object.entries({
    а: 'a',
    в: 'b',
    е: 'e',
    ё: 'e',
    к: 'k',
    м: 'm',
    н: 'h',
    о: 'o',
    р: 'p',
    с: 'c',
    т: 't',
    у: 'y',
    х: 'x',
    і: 'i',
    ї: 'i',
    ј: 'j',
    ѕ: 's',
    ԁ: 'd',
    ԛ: 'q',
    ԝ: 'w',
    һ: 'h',
    ү: 'y',
    ӏ: 'l',
    А: 'A',
    В: 'B',
    Е: 'E',
    К: 'K',
    М: 'M',
    Н: 'H',
    О: 'O',
    Р: 'P',
    С: 'C',
    Т: 'T',
    Х: 'X',
    І: 'I',
    Ј: 'J',
    Ѕ: 'S',
    ο: 'o',
    ν: 'v',
    ι: 'i',
    Α: 'A',
    Β: 'B',
    Ε: 'E',
    Ζ: 'Z',
    Η: 'H',
    Ι: 'I',
    Κ: 'K',
    Μ: 'M',
    Ν: 'N',
    Ο: 'O',
    Ρ: 'P',
    Τ: 'T',
    Υ: 'Y',
    Χ: 'X',
  }),
);

/** `text` with every Latin look-alike replaced by the Latin letter it imitates. */
export function unconfuse(text: string): string {
  let changed = false;
  const out: string[] = [];
  for (const ch of text) {
    const latin = LATIN_LOOKALIKES.get(ch);
    if (latin !== undefined) changed = true;
    out.push(latin ?? ch);
  }
  return changed ? out.join('') : text;
}

function isLatinLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** An identifier that mixes Latin letters with look-alikes from another script (`fеtch`). */
export function isLookalikeName(name: string): boolean {
  let latin = false;
  let lookalike = false;
  for (const ch of name) {
    if (isLatinLetter(ch.codePointAt(0)!)) latin = true;
    else if (LATIN_LOOKALIKES.has(ch)) lookalike = true;
  }
  return latin && lookalike;
}

export function hasInvisibleInName(name: string): boolean {
  for (const ch of name) if (isInvisibleInName(ch.codePointAt(0)!)) return true;
  return false;
}

export interface UnicodeInput {
  source: string;
  /** String literals as written (with their line): raw bidi controls are allowed only there. */
  literals: ReadonlyArray<{ raw: string; line: number }>;
  /** Every identifier, with its line. */
  identifiers: ReadonlyArray<{ name: string; line: number }>;
}

function lineAt(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i >= 0 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

/** Reports the source-wide unicode findings (all high or critical: none has an innocent use). */
export function scanUnicode(input: UnicodeInput, sink: FindingSink): void {
  const { source } = input;
  const total = countBidi(source);
  if (total > 0) {
    let explained = 0;
    for (const literal of input.literals) {
      const n = countBidi(literal.raw);
      if (n > 0 && isBalancedRtlText(literal.raw)) explained += n;
    }
    if (explained < total) {
      let first = -1;
      for (let i = 0; i < source.length && first < 0; i++)
        if (isBidiControl(source.charCodeAt(i))) first = i;
      sink.add(
        'unicode.bidi-control',
        lineAt(source, first),
        'critical',
        'bidirectional control characters outside a balanced right-to-left string (Trojan Source): the code does not run as it reads',
      );
    }
  }
  const hidden = hiddenTagText(source);
  if (hidden.length > 0) {
    let first = 0;
    for (const ch of source) {
      const code = ch.codePointAt(0)!;
      if (isTag(code)) break;
      first += ch.length;
    }
    sink.add(
      'unicode.tag-characters',
      lineAt(source, first),
      'critical',
      `invisible tag characters spell hidden text: "${hidden.slice(0, 80)}"`,
    );
  }
  if (hasVariationRun(source)) {
    const lines = source.split('\n');
    const at = lines.findIndex((l) => hasVariationRun(l));
    sink.add(
      'unicode.variation-selectors',
      at + 1,
      'critical',
      'a run of variation selectors hides bytes behind a visible character',
    );
  }
  for (const { name, line } of input.identifiers) {
    if (hasInvisibleInName(name))
      sink.add(
        'unicode.invisible-identifier',
        line,
        'critical',
        'an identifier holds an invisible character: two names that look the same',
      );
    else if (isLookalikeName(name))
      sink.add(
        'unicode.lookalike-identifier',
        line,
        'high',
        `the identifier "${unconfuse(name)}" is spelled with look-alike letters from another script`,
      );
  }
}
