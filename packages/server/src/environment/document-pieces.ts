/**
 * Documents crossing between threads in pieces. Receiving a structured clone is one turn of the event loop
 * however large it is (rebuilding one object of 25,000 keys took 20–70 ms of it, loaded 2-core VM), and so is
 * sending one (cloning the property sources of a large environment for its rendering took 10–30 ms). So the
 * sender serialises the documents in pieces of at most PIECE_PROPERTIES properties, cutting large documents, and
 * the receiver rebuilds them piece by piece; both a step per piece (time-slice.ts), whichever thread they run on.
 * Parsed files come back from a worker this way; an environment's property sources go to its rendering this way.
 */
import { deserialize, serialize } from 'node:v8';
import type { FlatProperties, PropertyValue } from '@confbus/core';
import { reviveJavaDoubles, setOwnProperty } from '@confbus/core/internal';
import { TimeSlice } from '../support/time-slice.js';

/** Properties (and origins) per piece: each piece is serialised or rebuilt in a few milliseconds. */
export const PIECE_PROPERTIES = 512;

/** What crosses in pieces: a parsed document, or a property source as `{ name, properties }`. */
export interface PiecewiseDocument {
  properties: FlatProperties;
  origins?: Readonly<Record<string, string>>;
}

/** Part of one document: its first fragment carries the document's other fields. */
interface Fragment<D extends PiecewiseDocument> {
  /** The document's position in the list. */
  document: number;
  head?: Omit<D, 'properties' | 'origins'>;
  properties: Map<string, PropertyValue>;
  origins?: Record<string, string>;
}

/** The documents as serialised pieces, in order, built a step per piece. */
export async function toPieces<D extends PiecewiseDocument>(documents: readonly D[]): Promise<Uint8Array[]> {
  const slice = new TimeSlice();
  const pieces: Uint8Array[] = [];
  let fragments: Fragment<D>[] = [];
  let size = 0;
  for (const [position, document] of documents.entries()) {
    const { properties, origins, ...head } = document;
    // Listing the entries of a large document walks all of it: a step of its own.
    const [propertyEntries, originKeys] = await slice.run(() => [
      [...properties],
      origins === undefined ? [] : Object.keys(origins),
    ]);
    const count = Math.max(1, runCount(propertyEntries), runCount(originKeys));
    for (let i = 0; i < count; i++) {
      await slice.run(() => {
        const fragment: Fragment<D> = {
          document: position,
          properties: new Map(propertyEntries.slice(i * PIECE_PROPERTIES, (i + 1) * PIECE_PROPERTIES)),
        };
        if (i === 0) fragment.head = head;
        if (origins !== undefined && (i === 0 || i < runCount(originKeys)))
          fragment.origins = runOf(origins, originKeys, i);
        fragments.push(fragment);
        size += Math.max(1, Math.min(PIECE_PROPERTIES, propertyEntries.length - i * PIECE_PROPERTIES));
        if (size >= PIECE_PROPERTIES) {
          pieces.push(serialize(fragments));
          fragments = [];
          size = 0;
        }
      });
    }
  }
  if (fragments.length > 0) pieces.push(serialize(fragments));
  return pieces;
}

/** The documents again, rebuilt a piece per step. */
export async function fromPieces<D extends PiecewiseDocument>(pieces: readonly Uint8Array[]): Promise<D[]> {
  const documents: D[] = [];
  const slice = new TimeSlice();
  for (const piece of pieces) {
    await slice.run(() => {
      for (const fragment of deserialize(piece) as Fragment<D>[]) {
        // Java doubles lose their class crossing threads (bigints do not): made doubles again, a piece at a time.
        reviveJavaDoubles(fragment.properties);
        const document = documents[fragment.document];
        if (fragment.head !== undefined) {
          documents[fragment.document] = {
            ...fragment.head,
            properties: fragment.properties,
            ...(fragment.origins === undefined ? {} : { origins: fragment.origins }),
          } as unknown as D;
        } else if (document !== undefined) {
          // The document was made from its first fragment's Map, which this thread owns.
          const properties = document.properties as Map<string, PropertyValue>;
          for (const [key, value] of fragment.properties) properties.set(key, value);
          if (fragment.origins !== undefined && document.origins !== undefined)
            for (const key of Object.keys(fragment.origins))
              setOwnProperty(document.origins as Record<string, string>, key, fragment.origins[key]!);
        }
      }
    });
  }
  return documents;
}

/** Runs of PIECE_PROPERTIES in a list of `items.length` entries. */
function runCount(items: readonly unknown[]): number {
  return Math.ceil(items.length / PIECE_PROPERTIES);
}

/** The `index`th run of PIECE_PROPERTIES entries of a record (the record itself when it has no more). */
function runOf(
  record: Readonly<Record<string, string>>,
  keys: readonly string[],
  index: number,
): Record<string, string> {
  if (keys.length <= PIECE_PROPERTIES) return index === 0 ? record : {};
  const run: Record<string, string> = {};
  for (const key of keys.slice(index * PIECE_PROPERTIES, (index + 1) * PIECE_PROPERTIES))
    setOwnProperty(run, key, record[key]!);
  return run;
}
