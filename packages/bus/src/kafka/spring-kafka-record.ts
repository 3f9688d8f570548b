/**
 * Spring Cloud Stream's Kafka record format for bus events (BinderHeaderMapper, docs/bus-kafka.md): no key, the
 * event's JSON as the value, `contentType` as raw text and `spring_json_header_types` naming its Java type, so
 * a Spring consumer reads the header back as a String. `id` and `timestamp` message headers are never sent.
 */
import type { Message } from '@platformatic/kafka';
import { SIGNATURE_HEADER } from '../signing/message-signing.js';
import type { InboundMessage } from '../transport.js';

export const CONTENT_TYPE_HEADER = 'contentType';
export const JSON_TYPES_HEADER = 'spring_json_header_types';

/** The headers of every record confbus sends, and its signature when signing is on. */
export function springKafkaHeaders(signature?: string): Map<Buffer, Buffer> {
  const headers = new Map(SPRING_HEADER_ENTRIES);
  if (signature !== undefined) headers.set(Buffer.from(SIGNATURE_HEADER), Buffer.from(signature));
  return headers;
}

const SPRING_HEADER_ENTRIES: readonly (readonly [Buffer, Buffer])[] = [
  [Buffer.from(CONTENT_TYPE_HEADER), Buffer.from('application/json')],
  [
    Buffer.from(JSON_TYPES_HEADER),
    Buffer.from(JSON.stringify({ [CONTENT_TYPE_HEADER]: 'java.lang.String' })),
  ],
];

/**
 * What the node decodes: the value's bytes, whatever the headers say (a record without a value, or with another
 * content type, fails to decode there and is dropped with a log line, like any malformed message).
 */
export function inboundFromRecord(record: Message<Buffer, Buffer, Buffer, Buffer>): InboundMessage {
  const contentType = headerText(record.headers, CONTENT_TYPE_HEADER);
  const signature = headerText(record.headers, SIGNATURE_HEADER);
  return {
    ...(signature === undefined ? {} : { signature }),
    body: { bytes: record.value ?? new Uint8Array(0) },
    origin: {
      topic: record.topic,
      partition: record.partition,
      offset: String(record.offset),
      ...(contentType === undefined ? {} : { contentType }),
    },
  };
}

/** A header as text; Spring 2.x wrote JSON-quoted strings (`"application/json"`), 3.x+ raw ones. */
function headerText(headers: Map<Buffer, Buffer> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of headers) {
    if (key.toString('utf8') !== name) continue;
    // Only for a log field: bound what a hostile header can put into a log line.
    const text = value.toString('utf8', 0, Math.min(value.length, 200));
    return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
  }
  return undefined;
}
