/**
 * Runs in the worker threads of EnvironmentWorkers: parses one configuration file, or renders one environment as
 * a file. Results cross back as data: documents in pieces (document-pieces.ts), confbus errors as data
 * (worker-errors.ts).
 */
import {
  type ConfigDocument,
  ConfbusError,
  type PropertySource,
  coreErrors,
  parseConfigFile,
} from '@confbus/core';
import { reviveJavaDoubles } from '@confbus/core/internal';
import { toPieces } from './document-pieces.js';
import { type RenderOptions, renderSources } from './environment-rendering.js';
import { type WorkerError, errorAsData } from './worker-errors.js';

export interface ParseTask {
  path: string;
  bytes: Uint8Array;
  /** confbus.server.max-file-documents: a file with more documents is refused before they cross threads. */
  maxDocuments: number;
}

export type ParseResult = { ok: true; pieces: Uint8Array[] } | { ok: false; error: WorkerError };

export interface RenderTask extends RenderOptions {
  sources: readonly PropertySource[];
}

export type RenderResult = { ok: true; text: string } | { ok: false; error: WorkerError };

export function parse(task: ParseTask): ParseResult {
  try {
    const documents = parseWithin(task.path, Buffer.from(task.bytes).toString('utf8'), task.maxDocuments);
    return { ok: true, pieces: toPieces(documents) };
  } catch (error) {
    return { ok: false, error: errorAsData(error) };
  }
}

export function render(task: RenderTask): RenderResult {
  try {
    // Java doubles arrive as plain objects (structured cloning drops their class): made doubles again first.
    for (const source of task.sources) reviveJavaDoubles(source.source);
    return { ok: true, text: renderSources(task.sources, task) };
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
