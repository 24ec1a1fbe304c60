/**
 * Cuts a reply into messages of at most `limit` characters (UTF-16 code units, as networks
 * count them), preferring a paragraph break, then a line break, then a space, and never cutting
 * a surrogate pair in two. Joined back with the separators it cut at, the parts give the text.
 */
export function splitText(text: string, limit: number): string[] {
  if (limit < 2) throw new RangeError('limit must be at least 2');
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    let cut = -1;
    let skip = 0;
    for (const separator of ['\n\n', '\n', ' ']) {
      const at = window.lastIndexOf(separator);
      if (at > limit / 4 && at <= limit) {
        cut = at;
        skip = separator.length;
        break;
      }
    }
    if (cut === -1) {
      cut = limit;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut + skip);
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest);
  return parts;
}
