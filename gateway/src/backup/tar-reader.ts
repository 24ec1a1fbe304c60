import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip, type Gunzip } from 'node:zlib';
import { MAX_PAX_BYTES } from './backup-plan.ts';
import {
  BLOCK,
  blocks,
  decodeHeader,
  isZeroBlock,
  parsePax,
  TarFormatError,
  typeDescription,
} from './tar-format.ts';

/** One member header, its pax record applied. */
export interface TarMember {
  path: string;
  /** node-tar's name of the type: `File`, `Directory`, `SparseFile`, … */
  type: string;
  size: number;
  mode: number;
  linkpath: string;
}

/** The archive is not what a Hearth backup may be: reading stops here. */
export class ArchiveRefused extends Error {}

/** The gzip or tar stream is broken (bad checksum, truncated, not gzip at all). */
export class ArchiveDamaged extends Error {}

/**
 * A tar.gz read strictly and in order, decompressing only as far as the caller allows: every
 * read is checked against `allow`, so bytes past what the manifest declares are never
 * inflated (at most one zlib chunk beyond), whatever the archive's compression ratio.
 */
export class TarReader {
  readonly #gunzip: Gunzip;
  readonly #chunks: AsyncIterator<Buffer>;
  readonly #piped: Promise<void>;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Bytes of tar taken so far. */
  #position = 0;
  /** No byte at or past this position is taken. */
  #limit = 0;
  /** Body bytes of the member last returned, padding included, not taken yet. */
  #body = 0;
  #bodySize = 0;
  #ended = false;

  constructor(file: string) {
    this.#gunzip = createGunzip({ chunkSize: 64 * 1024 });
    this.#piped = pipeline(createReadStream(file), this.#gunzip);
    this.#piped.catch(() => undefined);
    this.#chunks = this.#gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** Bytes of tar read so far. */
  get position(): number {
    return this.#position;
  }

  /** Lets reading go on `bytes` past the current position, and no further. */
  allow(bytes: number): void {
    this.#limit = this.#position + bytes;
  }

  #overrun(): ArchiveRefused {
    return new ArchiveRefused(
      `the archive holds more than its manifest declares: reading stopped after ${this.#position} ` +
        `bytes of tar, where the manifest allows at most ${this.#limit}`,
    );
  }

  /** One more decompressed chunk into the pending list; false at the end of the stream. */
  async #pull(): Promise<boolean> {
    let next: IteratorResult<Buffer>;
    try {
      next = await this.#chunks.next();
    } catch (error) {
      throw new ArchiveDamaged(error instanceof Error ? error.message : String(error));
    }
    if (next.done) return false;
    this.#pending.push(next.value);
    this.#pendingBytes += next.value.length;
    return true;
  }

  /** Up to `max` pending bytes (pulling when none are pending); empty at the end of the stream. */
  async #some(max: number): Promise<Buffer> {
    if (this.#pendingBytes === 0 && !(await this.#pull())) return Buffer.alloc(0);
    const first = this.#pending[0] ?? Buffer.alloc(0);
    const piece = first.length > max ? first.subarray(0, max) : first;
    if (piece.length === first.length) this.#pending.shift();
    else this.#pending[0] = first.subarray(max);
    this.#pendingBytes -= piece.length;
    this.#position += piece.length;
    return piece;
  }

  /** Exactly `length` bytes, within the limit; a stream that ends first is damaged. */
  async #take(length: number): Promise<Buffer> {
    if (this.#position + length > this.#limit) throw this.#overrun();
    const pieces: Buffer[] = [];
    let got = 0;
    while (got < length) {
      const piece = await this.#some(length - got);
      if (piece.length === 0) {
        if (this.#position === 0) throw new ArchiveDamaged('the archive is empty');
        throw new ArchiveDamaged('the archive ends in the middle of a member');
      }
      pieces.push(piece);
      got += piece.length;
    }
    return pieces.length === 1 ? (pieces[0] ?? Buffer.alloc(0)) : Buffer.concat(pieces, length);
  }

  /**
   * The next member's header, or null at the end-of-archive marker. The previous member's body
   * must have been read. A pax extended header is applied to the member after it, strictly;
   * every other kind of header is returned for the caller to judge.
   */
  async next(): Promise<TarMember | null> {
    if (this.#body > 0) throw new Error('the previous member was not read');
    let pax: { name: string; records: Map<string, string> } | undefined;
    for (;;) {
      const block = await this.#take(BLOCK);
      if (isZeroBlock(block)) {
        if (!isZeroBlock(await this.#take(BLOCK)))
          throw new ArchiveDamaged('a lone zero block inside the archive');
        if (pax)
          throw new ArchiveRefused(
            `${JSON.stringify(pax.name)}: pax extended header before the end of the archive`,
          );
        this.#ended = true;
        return null;
      }
      let header;
      try {
        header = decodeHeader(block);
      } catch (error) {
        if (error instanceof TarFormatError)
          throw new ArchiveDamaged(`${error.message} at byte ${this.#position - BLOCK}`);
        throw error;
      }
      if (header.type !== 'ExtendedHeader') {
        const size = pax?.records.get('size');
        const member: TarMember = {
          path: pax?.records.get('path') ?? header.name,
          type: header.type,
          size: size === undefined ? header.size : Number(size),
          mode: header.mode,
          linkpath: header.linkpath,
        };
        if (!Number.isSafeInteger(member.size))
          throw new ArchiveRefused(`${JSON.stringify(member.path)}: size out of range`);
        this.#bodySize = member.size;
        this.#body = blocks(member.size);
        return member;
      }
      const shown = JSON.stringify(header.name);
      if (pax) throw new ArchiveRefused(`${shown}: two pax extended headers in a row`);
      if (header.size > MAX_PAX_BYTES)
        throw new ArchiveRefused(
          `${shown}: pax extended header of ${header.size} bytes, beyond the limit of ${MAX_PAX_BYTES}`,
        );
      const body = (await this.#take(blocks(header.size))).subarray(0, header.size);
      try {
        pax = { name: header.name, records: parsePax(body) };
      } catch (error) {
        if (error instanceof TarFormatError)
          throw new ArchiveRefused(`${shown}: ${typeDescription(header.type)}: ${error.message}`);
        throw error;
      }
    }
  }

  /** The body of the member last returned, in pieces, then its padding. */
  async *body(): AsyncGenerator<Buffer> {
    if (this.#position + this.#body > this.#limit) throw this.#overrun();
    let left = this.#bodySize;
    while (left > 0) {
      const piece = await this.#some(left);
      if (piece.length === 0)
        throw new ArchiveDamaged('the archive ends in the middle of a member');
      left -= piece.length;
      this.#body -= piece.length;
      yield piece;
    }
    const padding = this.#body;
    this.#body = 0;
    await this.#take(padding);
  }

  /** The whole body of the member last returned (a small one: the manifest). */
  async readBody(): Promise<Buffer> {
    const pieces: Buffer[] = [];
    for await (const piece of this.body()) pieces.push(piece);
    return Buffer.concat(pieces);
  }

  /**
   * After the end-of-archive marker: the rest of the stream may only be zero padding, within
   * the limit, and the gzip trailer (its CRC and length) must check out.
   */
  async finish(): Promise<void> {
    if (!this.#ended) throw new Error('the end of the archive was not reached');
    for (;;) {
      const piece = await this.#some(Number.MAX_SAFE_INTEGER);
      if (piece.length === 0) break;
      if (this.#position > this.#limit) throw this.#overrun();
      if (!isZeroBlock(piece)) throw new ArchiveRefused('data after the end of the archive');
    }
    await this.#piped.catch((error: unknown) => {
      throw new ArchiveDamaged(error instanceof Error ? error.message : String(error));
    });
  }

  /** Stops reading: the file is closed and nothing more is inflated. */
  close(): void {
    this.#gunzip.destroy();
  }
}
