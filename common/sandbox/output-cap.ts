/**
 * Keeps the first `limit` bytes of a stream and drops the rest, so a chatty command never
 * makes the executor (or the sidecar) buffer more than the cap. The text ends on a UTF-8
 * character boundary.
 *
 * The gateway and the sandbox sidecar (which is deployed on its own image) both import this one
 * file from common/sandbox/; the sidecar's image copies that folder beside its sources.
 */
export interface CappedOutput {
  push(chunk: Buffer): void;
  readonly truncated: boolean;
  text(): string;
}

export function createCappedOutput(limit: number): CappedOutput {
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  return {
    push(chunk) {
      const room = limit - kept;
      if (chunk.length > room) truncated = true;
      if (room <= 0) return;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(part);
      kept += part.length;
    },
    get truncated() {
      return truncated;
    },
    text() {
      const bytes = Buffer.concat(chunks, kept);
      return bytes.subarray(0, truncated ? utf8Boundary(bytes) : bytes.length).toString('utf8');
    },
  };
}

/** Length of `bytes` without a trailing incomplete UTF-8 sequence. */
function utf8Boundary(bytes: Buffer): number {
  let start = bytes.length;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  while (start > 0 && start > bytes.length - 4 && ((bytes[start - 1] ?? 0) & 0xc0) === 0x80)
    start--;
  if (start === 0) return bytes.length;
  const lead = bytes[start - 1] ?? 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - (start - 1) >= need ? bytes.length : start - 1;
}
