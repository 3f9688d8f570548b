/**
 * Runs in the worker threads of EnvironmentWorkers: parses one configuration file, or renders one environment as
 * a file. Results cross back as data: documents in pieces (document-pieces.ts), confbus errors as data
 * (worker-errors.ts).
 */
import { ConfbusError, type PropertySource, coreErrors, parseConfigFile } from '@confbus/core';
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
    const documents = parseConfigFile(task.path, Buffer.from(task.bytes).toString('utf8'));
    if (documents.length > task.maxDocuments)
      throw tooManyDocuments(task.path, documents.length, task.maxDocuments);
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

/** The limit on documents per file, as the parser on either thread reports it. */
export function tooManyDocuments(path: string, documents: number, max: number): ConfbusError {
  return new ConfbusError(
    coreErrors.CONFBUS_CONFIG_LIMIT,
    `${path}: ${documents} documents, more than confbus.server.max-file-documents (${max})`,
  );
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
