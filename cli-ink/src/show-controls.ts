// The CLI's copy of gateway/src/text/show-controls.ts: clients use only the gateway's API, never
// its sources. Keep the two the same (cli-ink/src/show-controls.test.ts checks the cases).

/**
 * Characters that change how the text around them is displayed instead of showing
 * themselves: C0 controls (ESC starts terminal sequences, CR returns to the line start,
 * BS erases), DEL, C1 controls (U+0080–U+009F; U+009B is a one-byte CSI), the bidirectional
 * marks, embeddings, overrides and isolates (U+061C, U+200E/U+200F, U+202A–U+202E,
 * U+2066–U+2069), invisible characters (U+200B–U+200D, U+2060–U+2065, U+FEFF), the line and
 * paragraph separators (U+2028/U+2029) and lone surrogates.
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- finding control characters is this module's job
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]/gu;

const SHORT: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * `text` as a person should read it: every character that could hide, move or repaint other
 * text is shown as an escape (`\n`, `\r`, `\t`, `\x1b`, `\u202e`), everything else unchanged.
 * For display only; the exact text stays in machine-readable fields. So that
 * `touch X #\e[2K\r\e[32mls -la` cannot pass for `ls -la` on an approver's screen.
 */
export function showControls(text: string): string {
  return text.replace(HIDDEN, (char) => {
    const short = SHORT[char];
    if (short !== undefined) return short;
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
