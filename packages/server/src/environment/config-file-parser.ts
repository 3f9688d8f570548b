/**
 * Parses configuration files without blocking the event loop for long: small files inline, larger ones in a
 * worker thread (piscina), with a size limit per file and a time limit per parse.
 *
 * Why a worker and not chunking (measured on the shared 2-core VM, provisional): the `yaml` parser handles
 * ~250–400 KB/s here, so a 2 MB file of 50,000 keys blocked the loop for 9.0 s and 0.6 MB of 20,000 documents
 * for 7.4 s. Chunking can only yield between documents, and one large document cannot be split, so a single
 * 2 MB document still stalls for seconds. In a worker the same file costs the main thread only the structured
 * clone of the result: a longest stall of ~100 ms for 50,000 keys (~50 ms for 10,000), against 9 s inline.
 * Only files under INLINE_BYTES parse inline: on the loaded VM even 7 KB of YAML took up to ~240 ms.
 */
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ConfigDocument,
  ConfbusError,
  ConfigParseError,
  coreErrors,
  parseConfigFile,
  reviveJavaDoubles,
} from '@confbus/core';
import { Piscina } from 'piscina';
import type { ParseResult, ParseTask } from './parse-worker.js';

/** Files up to this size are parsed on the calling thread. */
export const INLINE_BYTES = 1024;
/** A parse that takes longer is abandoned (its worker is ended) and reported as a parse error. */
export const PARSE_TIMEOUT_MS = 30_000;

export interface ConfigFileParserOptions {
  /** Largest file parsed (confbus.server.max-file-bytes). */
  maxFileBytes: number;
}

export class ConfigFileParser {
  private pool: Piscina<ParseTask, ParseResult> | undefined;

  constructor(private readonly options: ConfigFileParserOptions) {}

  async parse(path: string, bytes: Buffer): Promise<ConfigDocument[]> {
    if (bytes.length > this.options.maxFileBytes) {
      throw new ConfbusError(
        coreErrors.CONFBUS_CONFIG_LIMIT,
        `${path}: the file is ${bytes.length} bytes, more than confbus.server.max-file-bytes (${this.options.maxFileBytes})`,
      );
    }
    // A small YAML file with anchors can still expand (aliases): it goes to the worker too.
    const mayExpand = !path.toLowerCase().endsWith('.properties') && bytes.includes(0x26 /* & */);
    if (bytes.length <= INLINE_BYTES && !mayExpand) return parseConfigFile(path, bytes.toString('utf8'));
    const result = await this.runInWorker({ path, bytes });
    if (result.ok) {
      for (const document of result.documents) reviveJavaDoubles(document.properties);
      return result.documents;
    }
    throw new ConfigParseError(result.file, result.reason, result.details);
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }

  private async runInWorker(task: ParseTask): Promise<ParseResult> {
    this.pool ??= new Piscina<ParseTask, ParseResult>({
      // The worker module beside this one: .js when built, .ts when tests run the sources through tsx.
      filename: fileURLToPath(
        new URL(`./parse-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
      ),
      minThreads: 0,
      maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
      idleTimeout: 60_000,
    });
    try {
      return await this.pool.run(task, { signal: AbortSignal.timeout(PARSE_TIMEOUT_MS) });
    } catch (error) {
      if (
        (error as { name?: string }).name === 'AbortError' ||
        (error as { name?: string }).name === 'TimeoutError'
      ) {
        throw new ConfigParseError(task.path, `parsing took longer than ${PARSE_TIMEOUT_MS / 1000} s`);
      }
      throw error;
    }
  }
}
