/**
 * A repository's configuration files, read at a commit and parsed through the parsed-file cache every repository
 * shares. Entries are keyed by blob id when the repository has them, so a file unchanged since an earlier commit
 * is not parsed again. The environment service reads its files through it, and so does /monitor's check that the
 * files a push changed parse: the environments rebuilt after the push then find those files parsed already.
 */
import type { ConfigFileParser } from './config-file-parser.js';
import { type ConfigRepository, FileTooLargeError } from './config-repository.js';
import type { EnvironmentCaches, ParsedFile } from './environment-caches.js';
import { parsedDocumentsBytes } from './memory-estimates.js';

export interface ParsedFilesOptions {
  repository: Pick<ConfigRepository, 'readFile' | 'blobIds'>;
  parser: ConfigFileParser;
  caches: EnvironmentCaches;
}

export class ParsedFiles {
  /** Files parsed (not found in the cache), for tests and benchmarks that count parses. */
  parses = 0;
  /** This repository's prefix of the shared cache's keys. */
  private readonly namespace: string;
  /** Reads and parses in flight, by cache key. */
  private readonly reading = new Map<string, Promise<ParsedFile>>();

  constructor(private readonly options: ParsedFilesOptions) {
    this.namespace = options.caches.namespace();
  }

  /** Largest file parsed (confbus.server.max-file-bytes): a larger one is refused before it is read. */
  get maxFileBytes(): number {
    return this.options.parser.maxFileBytes;
  }

  /** The blob ids of a commit's files (path → id), when the repository has them. */
  blobIds(commit: string): Promise<ReadonlyMap<string, string>> | undefined {
    return this.options.repository.blobIds?.(commit);
  }

  /**
   * The documents of `path` at `commit` (none when it does not exist there); a file that does not parse throws
   * its ConfigParseError, and is not cached.
   */
  read(commit: string, path: string, blobId: string | undefined): Promise<ParsedFile> {
    // The path is part of the key even with a blob id: parsing depends on the file name (.yml vs .properties)
    // and errors name the file.
    const key = `${this.namespace}${blobId ?? commit}\u0000${path}`;
    const cached = this.options.caches.parsed.get(key);
    if (cached) return Promise.resolve(cached);
    // Concurrent first requests (four renderings of a new large file) share one read and parse: the main thread
    // rebuilds a large file's documents once, not once per request.
    let pending = this.reading.get(key);
    if (pending === undefined) {
      pending = this.readAndParse(commit, path, key).finally(() => this.reading.delete(key));
      this.reading.set(key, pending);
    }
    return pending;
  }

  private async readAndParse(commit: string, path: string, key: string): Promise<ParsedFile> {
    const { parser } = this.options;
    // Refused by the size the repository announces: a file over the limit is never read into memory.
    const bytes = await this.options.repository
      .readFile(commit, path, parser.maxFileBytes)
      .catch((error: unknown) => {
        throw error instanceof FileTooLargeError ? parser.tooLarge(path, error.bytes) : error;
      });
    this.parses++;
    let file: ParsedFile = { documents: [], bytes: 0, weight: 0 };
    if (bytes !== undefined) {
      const documents = await parser.parse(path, bytes);
      file = { documents, bytes: bytes.length, weight: parsedDocumentsBytes(bytes.length, documents) };
    }
    this.options.caches.parsed.set(key, file);
    return file;
  }

  /** read() of one file, its blob id looked up first (the monitor's check of a changed file). */
  async readOne(commit: string, path: string): Promise<ParsedFile> {
    const ids = await this.blobIds(commit);
    return this.read(commit, path, ids?.get(path));
  }
}
