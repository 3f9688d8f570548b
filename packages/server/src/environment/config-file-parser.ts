/**
 * Parses configuration files without blocking the event loop for long: small files inline, larger ones in a
 * worker thread (environment-workers.ts), with a size limit and a document limit per file.
 *
 * Why a worker and not chunking (measured on the shared 2-core VM, provisional): the `yaml` parser handles
 * ~250–400 KB/s here, so a 2 MB file of 50,000 keys blocked the loop for 9.0 s and 0.6 MB of 20,000 documents
 * for 7.4 s. Chunking can only yield between documents, and one large document cannot be split, so a single
 * 2 MB document still stalls for seconds. In a worker the same file costs the main thread only rebuilding the
 * result, piece by piece (document-pieces.ts). Only files under INLINE_BYTES parse inline: on the loaded VM
 * even 7 KB of YAML took up to ~240 ms. The document limit bounds the work that grows with the number of
 * documents on the main thread (one property source each, the import tree's walks): 20,000 documents in
 * 0.6 MB cost the event loop 140–290 ms in one turn.
 */
import { type ConfigDocument, ConfbusError, ConfigParseError, coreErrors } from '@confbus/core';
import { fromPieces } from './document-pieces.js';
import { parseWithin } from './environment-worker.js';
import type { EnvironmentWorkers } from './environment-workers.js';
import { errorFromData } from './worker-errors.js';

/** Files up to this size are parsed on the calling thread. */
export const INLINE_BYTES = 1024;

export interface ConfigFileParserOptions {
  /** Largest file parsed (confbus.server.max-file-bytes). */
  maxFileBytes: number;
  /** Most documents one file may hold (confbus.server.max-file-documents). */
  maxFileDocuments: number;
  workers: EnvironmentWorkers;
}

export class ConfigFileParser {
  constructor(private readonly options: ConfigFileParserOptions) {}

  /** Largest file parsed: a reader refuses larger ones before reading them (tooLarge). */
  get maxFileBytes(): number {
    return this.options.maxFileBytes;
  }

  /** The answer for a file of `bytes` over maxFileBytes. */
  tooLarge(path: string, bytes: number): ConfbusError {
    const { maxFileBytes } = this.options;
    return new ConfbusError(
      coreErrors.CONFBUS_CONFIG_LIMIT,
      `${path}: the file is ${bytes} bytes, more than confbus.server.max-file-bytes (${maxFileBytes})`,
    );
  }

  async parse(path: string, bytes: Buffer): Promise<ConfigDocument[]> {
    const { maxFileBytes, maxFileDocuments } = this.options;
    if (bytes.length > maxFileBytes) throw this.tooLarge(path, bytes.length);
    // A small YAML file with anchors can still expand (aliases): it goes to the worker too.
    const mayExpand = !path.toLowerCase().endsWith('.properties') && bytes.includes(0x26 /* & */);
    if (bytes.length <= INLINE_BYTES && !mayExpand)
      return parseWithin(path, bytes.toString('utf8'), maxFileDocuments);
    const result = await this.options.workers.run(
      'parse',
      { path, bytes, maxDocuments: maxFileDocuments },
      (seconds) => new ConfigParseError(path, `parsing took longer than ${seconds} s`),
    );
    if (!result.ok) throw errorFromData(result.error);
    return fromPieces<ConfigDocument>(result.pieces);
  }
}
