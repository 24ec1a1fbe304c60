/**
 * Undoes the encodings payloads hide behind (base64, hex, base32, rot13) on a literal, without
 * running anything, so the scanner reads the path or host a module decodes at run time.
 * Only text that decodes to printable UTF-8 counts.
 */
export type LiteralEncoding = 'base64' | 'hex' | 'base32' | 'rot13';

const PRINTABLE = /^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/;

export function decodeLiteral(value: string, encoding: LiteralEncoding): string | undefined {
  let out: string | undefined;
  if (encoding === 'rot13') {
    out = value.replace(/[a-z]/gi, (c) => {
      const base = c <= 'Z' ? 65 : 97;
      return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
    });
  } else if (encoding === 'hex') {
    if (!/^(?:[0-9a-f]{2})+$/i.test(value)) return undefined;
    out = Buffer.from(value, 'hex').toString('utf8');
  } else if (encoding === 'base64') {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return undefined;
    out = Buffer.from(value, 'base64').toString('utf8');
  } else {
    out = base32(value);
  }
  return out !== undefined && out.length > 0 && PRINTABLE.test(out) && !out.includes('\ufffd')
    ? out
    : undefined;
}

function base32(value: string): string | undefined {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = value.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let acc = 0;
  const bytes: number[] = [];
  for (const c of clean) {
    const v = alphabet.indexOf(c);
    if (v < 0) return undefined;
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bytes.push((acc >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
