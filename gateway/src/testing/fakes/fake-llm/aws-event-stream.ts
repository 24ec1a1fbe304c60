/**
 * AWS event-stream binary framing (`application/vnd.amazon.eventstream`), as Bedrock's
 * ConverseStream sends it: a prelude (total length, headers length, prelude CRC32), string
 * headers, the JSON payload, and a CRC32 of everything before it. All integers big-endian.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html
 */
import { crc32 } from 'node:zlib';

const STRING_HEADER = 7;

function encodeHeaders(headers: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const valueBytes = Buffer.from(value, 'utf8');
    const head = Buffer.alloc(1 + nameBytes.length + 1 + 2);
    head.writeUInt8(nameBytes.length, 0);
    nameBytes.copy(head, 1);
    head.writeUInt8(STRING_HEADER, 1 + nameBytes.length);
    head.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
    parts.push(head, valueBytes);
  }
  return Buffer.concat(parts);
}

export function encodeEventStreamMessage(
  headers: Record<string, string>,
  payload: Uint8Array,
): Uint8Array {
  const headerBytes = encodeHeaders(headers);
  const total = 12 + headerBytes.length + payload.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
  headerBytes.copy(message, 12);
  Buffer.from(payload).copy(message, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}

/** A modelled exception sent after the 200 headers (`throttlingException` ...). */
export function encodeException(exceptionType: string, body: unknown): Uint8Array {
  return encodeEventStreamMessage(
    {
      ':exception-type': exceptionType,
      ':content-type': 'application/json',
      ':message-type': 'exception',
    },
    Buffer.from(JSON.stringify(body), 'utf8'),
  );
}

/** One Bedrock stream event (`messageStart`, `contentBlockDelta`, `metadata` ...). */
export function encodeEvent(eventType: string, body: unknown): Uint8Array {
  return encodeEventStreamMessage(
    { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
    Buffer.from(JSON.stringify(body), 'utf8'),
  );
}
