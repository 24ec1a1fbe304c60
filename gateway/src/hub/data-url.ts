import { HearthError, validationError } from '../errors.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of a `data:` URL (RFC 2397): `data:[<media type>][;base64],<data>`, the data
 * base64 or percent-encoded. Anything malformed is a 422 naming `url`; more than `maxBytes`
 * decoded bytes is a 413, checked on the encoded length before anything is decoded.
 */
export function decodeDataUrl(text: string, maxBytes: number): Uint8Array {
  if (!/^data:/i.test(text)) throw validationError('url: not a data: URL');
  const comma = text.indexOf(',');
  if (comma < 0) throw validationError('url: a data: URL needs a "," before its data');
  const meta = text.slice(5, comma);
  const data = text.slice(comma + 1);
  const base64 = /;base64$/i.test(meta);
  // The decoded size, counted on the encoded text before anything is decoded.
  if ((base64 ? decodedBase64Length(data) : percentDecodedLength(data)) > maxBytes)
    throw tooLarge(maxBytes);
  const bytes = base64 ? decodeBase64(data) : percentDecode(data);
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

export function tooLarge(maxBytes: number): HearthError {
  return new HearthError(
    'payload_too_large',
    `url: the package is larger than the hub's limit of ${maxBytes} bytes`,
  );
}

function decodeBase64(data: string): Uint8Array {
  const compact = percentDecodeText(data).replace(/[\t\n\f\r ]/g, '');
  if (!BASE64.test(compact) || compact.length % 4 === 1)
    throw validationError('url: the data: URL is not valid base64');
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

function decodedBase64Length(data: string): number {
  return Math.floor((data.replace(/[^A-Za-z0-9+/]/g, '').length * 3) / 4);
}

function percentDecodedLength(data: string): number {
  return data.length - 2 * (data.match(/%[0-9A-Fa-f]{2}/g)?.length ?? 0);
}

/** Percent-decodes to bytes (not text): the bytes are checked as UTF-8 later, once. */
function percentDecode(data: string): Uint8Array {
  const out = new Uint8Array(data.length);
  let length = 0;
  for (let i = 0; i < data.length; i += 1) {
    const code = data.charCodeAt(i);
    if (code === 0x25) {
      const hex = data.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex))
        throw validationError(`url: bad percent-encoding at character ${i} of the data: URL`);
      out[length++] = Number.parseInt(hex, 16);
      i += 2;
    } else if (code > 0x7e || code < 0x20) {
      throw validationError('url: a data: URL must be ASCII (percent-encode other bytes)');
    } else {
      out[length++] = code;
    }
  }
  return out.slice(0, length);
}

function percentDecodeText(data: string): string {
  return data.includes('%') ? Buffer.from(percentDecode(data)).toString('latin1') : data;
}
