/**
 * A minimal protocol-buffers encoder, just enough to write the ONNX messages the tiny test
 * model needs (varints, 32-bit floats, length-delimited strings/bytes/sub-messages, packed
 * repeated scalars). Test support only: the gateway never writes protobuf.
 */

const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;

/** A message under construction: fields are appended in call order. */
export class ProtoWriter {
  readonly #chunks: Uint8Array[] = [];

  /** int32 / int64 / enum / bool as a varint (negative values as ten-byte two's complement). */
  varint(field: number, value: number | bigint): this {
    this.#tag(field, WIRE_VARINT);
    this.#push(encodeVarint(value));
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  bytes(field: number, value: Uint8Array): this {
    this.#tag(field, WIRE_LENGTH_DELIMITED);
    this.#push(encodeVarint(value.length));
    this.#push(value);
    return this;
  }

  message(field: number, build: (writer: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  /** A packed repeated varint field (e.g. `repeated int64 dims`). */
  packedVarints(field: number, values: readonly (number | bigint)[]): this {
    const parts = values.map((value) => encodeVarint(value));
    return this.bytes(field, concat(parts));
  }

  /** A packed repeated float field (e.g. `repeated float float_data`). */
  packedFloats(field: number, values: ArrayLike<number>): this {
    const buffer = new Uint8Array(values.length * 4);
    const view = new DataView(buffer.buffer);
    for (let index = 0; index < values.length; index += 1) {
      view.setFloat32(index * 4, values[index] ?? 0, true);
    }
    return this.bytes(field, buffer);
  }

  finish(): Uint8Array {
    return concat(this.#chunks);
  }

  #tag(field: number, wireType: number): void {
    this.#push(encodeVarint((field << 3) | wireType));
  }

  #push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
  }
}

export function encodeVarint(value: number | bigint): Uint8Array {
  // Negative numbers are encoded as their 64-bit two's complement, as protobuf does for int64.
  let remaining = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    let byte = Number(remaining & 0x7fn);
    remaining >>= 7n;
    if (remaining !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (remaining !== 0n);
  return Uint8Array.from(bytes);
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
