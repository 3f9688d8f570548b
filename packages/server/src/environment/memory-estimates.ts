/**
 * Estimated memory of what the environment caches keep, so that confbus.server.cache.max-bytes bounds bytes
 * rather than entries. Estimates, not measurements: they err on the large side. Fitted on Node 20's heap after
 * a full GC (parsed YAML and `.properties` files of 0.4–1 MB): a parsed property costs 130–190 bytes beside its
 * text (the flat map's slot, the origin `line:column`, the key string's header), a document about 230, and the
 * text itself at most two bytes a character; so one small-document file weighs up to 20 times its size and a
 * file of long values little more than its size, where a fixed ratio was off by five times either way.
 */
import type { ConfigDocument, Environment, FlatProperties } from '@confbus/core';

const BYTES_PER_PROPERTY = 200;
const BYTES_PER_DOCUMENT = 256;
/** V8 keeps a string one byte a character when it can, two otherwise: count two. */
const BYTES_PER_CHARACTER = 2;
/** A merged map's slot per key (its keys and values are shared with the property sources). */
const BYTES_PER_MERGED_PROPERTY = 64;
/** Bookkeeping of one cache entry (key, entry object, the holder's fields). */
export const CACHE_ENTRY_BYTES = 1024;

/** The documents parsed from a file of `sourceBytes` bytes. */
export function parsedDocumentsBytes(sourceBytes: number, documents: readonly ConfigDocument[]): number {
  let properties = 0;
  for (const document of documents) properties += document.properties.size;
  return (
    sourceBytes * BYTES_PER_CHARACTER +
    properties * BYTES_PER_PROPERTY +
    documents.length * BYTES_PER_DOCUMENT
  );
}

/**
 * A merged map of an environment's properties: a slot per key. Its keys and values are the sources' own
 * (placeholders are resolved in the rendered text, not in this map), so they cost nothing more.
 */
export function mergedPropertiesBytes(merged: FlatProperties): number {
  return merged.size * BYTES_PER_MERGED_PROPERTY;
}

/** Property sources read from a database (no file behind them): each property and its text, as a parsed file's. */
export function propertySourcesBytes(sources: Environment['propertySources']): number {
  let bytes = 0;
  for (const source of sources) {
    bytes += BYTES_PER_DOCUMENT + source.name.length * BYTES_PER_CHARACTER;
    for (const [key, value] of source.source) {
      bytes += BYTES_PER_PROPERTY + (key.length + String(value).length) * BYTES_PER_CHARACTER;
    }
  }
  return bytes;
}

/** A rendering kept as a string. */
export function textBytes(text: string): number {
  return text.length * BYTES_PER_CHARACTER;
}

/**
 * The documents' estimate (`objectBytes`) for an environment as served: a transform (decryption, overrides) that
 * copied some property sources holds that share of them twice.
 */
export function servedObjectBytes(objectBytes: number, stored: Environment, served: Environment): number {
  return objectBytes * (1 + copiedShare(stored, served));
}

/** The share of `served`'s property sources that are not `stored`'s own objects (copies made by a transform). */
function copiedShare(stored: Environment, served: Environment): number {
  if (served === stored || served.propertySources.length === 0) return 0;
  const own = new Set(stored.propertySources.map((source) => source.source));
  const copied = served.propertySources.filter((source) => !own.has(source.source)).length;
  return copied / served.propertySources.length;
}
