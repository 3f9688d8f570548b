/**
 * Estimated memory of what the environment caches keep, so that confbus.server.cache.max-bytes bounds bytes
 * rather than entries. Estimates, not measurements, fitted to the retained heap of Node 20 (no pointer
 * compression) and checked by test/memory-estimates.test.ts, which fails when one strays outside 0.5–2 times
 * the heap it stands for.
 *
 * How the constants were fitted (the test measures the same way): 50–2,000 results of each shape were kept alive
 * and the growth of process.memoryUsage().heapUsed between full collections (--expose-gc) divided by their
 * number; files were read through ParsedFiles, as the server reads them (a worker over 1 KiB). Shapes:
 * YAML of 200–400 short keys (flat, nested, lists), `.properties` of 300 keys, 20 values of 2,000 characters,
 * 100 small documents in one file, tiny files of 2 keys; database sources of 5–3,000 keys with values of 8 and
 * 200 characters. Results, bytes beyond the characters: a parsed property 240–265 (its FlatProperties Map entry,
 * key and value strings' headers, its origin `line:column` and that record's slot), a parsed document 600–650,
 * a property read from a database 60–130 (no origin), a slot of a merged Map 29–61.
 */
import type { ConfigDocument, Environment, FlatProperties, PropertySource } from '@confbus/core';

/** A parsed property beyond its characters. */
const BYTES_PER_PROPERTY = 256;
const BYTES_PER_DOCUMENT = 640;
/** A property read from a database (a Map entry, key and value strings, no origin) beyond its characters. */
const BYTES_PER_READ_PROPERTY = 96;
/** A property source read from a database, beyond its name's characters and its properties. */
const BYTES_PER_READ_SOURCE = 256;
/** A merged map's slot per key (its keys and values are shared with the property sources). */
const BYTES_PER_MERGED_PROPERTY = 48;
/** Bookkeeping of one cache entry (key, entry object, the holder's fields). */
export const CACHE_ENTRY_BYTES = 1024;

/**
 * The documents parsed from a file of `sourceBytes` bytes (UTF-8): its characters are counted as those bytes,
 * which V8's strings never exceed (one byte a Latin-1 character, two a UTF-16 unit, where UTF-8 takes 1–4).
 */
export function parsedDocumentsBytes(sourceBytes: number, documents: readonly ConfigDocument[]): number {
  let properties = 0;
  for (const document of documents) properties += document.properties.size;
  return sourceBytes + properties * BYTES_PER_PROPERTY + documents.length * BYTES_PER_DOCUMENT;
}

/**
 * A merged map of an environment's properties: a slot per key. Its keys and values are the sources' own
 * (placeholders are resolved in the rendered text, not in this map), so they cost nothing more.
 */
export function mergedPropertiesBytes(merged: FlatProperties): number {
  return merged.size * BYTES_PER_MERGED_PROPERTY;
}

/** Property sources read from a database (no file behind them), or copied by a transform. */
export function propertySourcesBytes(sources: readonly PropertySource[]): number {
  let bytes = 0;
  for (const source of sources) {
    bytes += BYTES_PER_READ_SOURCE + textBytes(source.name);
    for (const [key, value] of source.source) {
      bytes += BYTES_PER_READ_PROPERTY + textBytes(key) + textBytes(String(value));
    }
  }
  return bytes;
}

/** A string kept (a rendering, a key, a value): its UTF-8 length, at least what V8 stores it in. */
export function textBytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * An environment as served, from the estimate of its stored one (`objectBytes`): a transform (decryption,
 * overrides) that made property sources of its own adds their weight; sources it kept as they were cost nothing.
 */
export function servedObjectBytes(objectBytes: number, stored: Environment, served: Environment): number {
  if (served === stored) return objectBytes;
  const own = new Set(stored.propertySources.map((source) => source.source));
  return (
    objectBytes + propertySourcesBytes(served.propertySources.filter((source) => !own.has(source.source)))
  );
}
