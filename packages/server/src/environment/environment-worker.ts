/**
 * Runs in the worker threads of EnvironmentWorkers: parses one configuration file, or renders one environment as
 * a file. Documents and property sources cross in pieces (document-pieces.ts), confbus errors as data
 * (worker-errors.ts).
 */
import {
  type ConfigDocument,
  ConfbusError,
  type FlatProperties,
  type PropertySource,
  coreErrors,
  parseConfigFile,
} from '@confbus/core';
import { fromPieces, toPieces } from './document-pieces.js';
import { type RenderOptions, renderSources } from './environment-rendering.js';
import { type WorkerError, errorAsData } from './worker-errors.js';

export interface ParseTask {
  path: string;
  bytes: Uint8Array;
  /** confbus.server.max-file-documents: a file with more documents is refused before they cross threads. */
  maxDocuments: number;
}

export type ParseResult = { ok: true; pieces: Uint8Array[] } | { ok: false; error: WorkerError };

/** A property source as it crosses to the worker: its name and properties (origins are not rendered). */
export interface NamedProperties {
  name: string;
  properties: FlatProperties;
}

export interface RenderTask extends RenderOptions {
  /** The environment's property sources in pieces (document-pieces.ts). */
  sources: Uint8Array[];
}

export type RenderResult = { ok: true; text: string } | { ok: false; error: WorkerError };

export async function parse(task: ParseTask): Promise<ParseResult> {
  try {
    const documents = parseWithin(task.path, Buffer.from(task.bytes).toString('utf8'), task.maxDocuments);
    return { ok: true, pieces: await toPieces(documents) };
  } catch (error) {
    return { ok: false, error: errorAsData(error) };
  }
}

export async function render(task: RenderTask): Promise<RenderResult> {
  try {
    const sources: PropertySource[] = (await fromPieces<NamedProperties>(task.sources)).map(
      ({ name, properties }) => ({ name, source: properties }),
    );
    return { ok: true, text: renderSources(sources, task) };
  } catch (error) {
    return { ok: false, error: errorAsData(error) };
  }
}

/** One file parsed, refused beyond `maxDocuments` (confbus.server.max-file-documents): on either thread. */
export function parseWithin(path: string, text: string, maxDocuments: number): ConfigDocument[] {
  const documents = parseConfigFile(path, text);
  if (documents.length > maxDocuments) {
    throw new ConfbusError(
      coreErrors.CONFBUS_CONFIG_LIMIT,
      `${path}: ${documents.length} documents, more than confbus.server.max-file-documents (${maxDocuments})`,
    );
  }
  return documents;
}

/**
 * A thread loads the module's default export when it starts: without one, a test run (sources through tsx,
 * which hooks require() but not a worker's import()) fails to start the thread. Tasks name their function.
 */
export default parse;

/** The functions EnvironmentWorkers can run, by name. */
export interface WorkerTasks {
  parse: typeof parse;
  render: typeof render;
}
