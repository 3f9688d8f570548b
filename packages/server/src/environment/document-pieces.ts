/**
 * Parsed documents crossing from a worker thread in pieces. Receiving a structured clone is one turn of the
 * event loop however large it is, and rebuilding one object of 25,000 keys took 20–70 ms of it (loaded 2-core
 * VM); so the worker serialises the documents in pieces of at most PIECE_PROPERTIES properties, cutting large
 * documents, and the main thread rebuilds them piece by piece, yielding between turns (time-slice.ts).
 */
import { deserialize, serialize } from 'node:v8';
import { type ConfigDocument, type FlatProperties } from '@confbus/core';
import { reviveJavaDoubles, setFlatProperty } from '@confbus/core/internal';
import { TimeSlice } from '../support/time-slice.js';

/** Properties (and origins) per piece: each piece is rebuilt in a few milliseconds. */
export const PIECE_PROPERTIES = 512;

/** Part of one document: its first fragment carries the document's other fields. */
interface Fragment {
  /** The document's position in the file's list. */
  document: number;
  head?: Omit<ConfigDocument, 'properties' | 'origins'>;
  properties: FlatProperties;
  origins?: Record<string, string>;
}

/** In the worker: the documents as serialised pieces, in order. */
export function toPieces(documents: readonly ConfigDocument[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let fragments: Fragment[] = [];
  let size = 0;
  documents.forEach((document, position) => {
    const { properties, origins, ...head } = document;
    const propertyRuns = runsOf(properties);
    const originRuns = origins === undefined ? [] : runsOf(origins);
    const count = Math.max(1, propertyRuns.length, originRuns.length);
    for (let i = 0; i < count; i++) {
      const fragment: Fragment = { document: position, properties: propertyRuns[i] ?? {} };
      if (i === 0) fragment.head = head;
      const originRun = originRuns[i];
      if (originRun !== undefined) fragment.origins = originRun;
      else if (i === 0 && origins !== undefined) fragment.origins = {};
      fragments.push(fragment);
      size += Math.max(1, Object.keys(fragment.properties).length);
      if (size >= PIECE_PROPERTIES) {
        pieces.push(serialize(fragments));
        fragments = [];
        size = 0;
      }
    }
  });
  if (fragments.length > 0) pieces.push(serialize(fragments));
  return pieces;
}

/** On the main thread: the documents again, rebuilt a piece per step. */
export async function fromPieces(pieces: readonly Uint8Array[]): Promise<ConfigDocument[]> {
  const documents: ConfigDocument[] = [];
  const slice = new TimeSlice();
  for (const piece of pieces) {
    await slice.pause();
    for (const fragment of deserialize(piece) as Fragment[]) {
      // Java doubles lose their class crossing threads (bigints do not): made doubles again, a piece at a time.
      reviveJavaDoubles(fragment.properties);
      const document = documents[fragment.document];
      if (fragment.head !== undefined) {
        documents[fragment.document] = {
          ...fragment.head,
          properties: fragment.properties,
          ...(fragment.origins === undefined ? {} : { origins: fragment.origins }),
        };
      } else if (document !== undefined) {
        addAll(document.properties, fragment.properties);
        if (fragment.origins !== undefined && document.origins !== undefined)
          addAll(document.origins as Record<string, string>, fragment.origins);
      }
    }
  }
  return documents;
}

/** A record's entries in runs of PIECE_PROPERTIES, in their order. */
function runsOf<V extends FlatProperties[string]>(record: Readonly<Record<string, V>>): Record<string, V>[] {
  const keys = Object.keys(record);
  if (keys.length <= PIECE_PROPERTIES) return keys.length === 0 ? [] : [record as Record<string, V>];
  const runs: Record<string, V>[] = [];
  for (let start = 0; start < keys.length; start += PIECE_PROPERTIES) {
    const run: Record<string, V> = {};
    for (const key of keys.slice(start, start + PIECE_PROPERTIES))
      setFlatProperty(run, key, record[key] as V);
    runs.push(run);
  }
  return runs;
}

function addAll(target: FlatProperties, source: FlatProperties): void {
  for (const key of Object.keys(source)) setFlatProperty(target, key, source[key] as FlatProperties[string]);
}
