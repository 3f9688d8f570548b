/**
 * The caches of built environments and parsed files, one pair for the whole server: every repository's
 * environment service (the default one, `repos.*`, up to max-placeholder-repositories made from a uri
 * template) and the multi-label finder share them, so confbus.server.cache.max-entries and .max-bytes bound the
 * server, not each repository. Entries are weighed by estimated bytes (memory-estimates.ts), and an environment
 * is weighed again each time it keeps a new serialisation or rendering.
 */
import type { ConfigDocument } from '@confbus/core';
import { LruCache } from '../support/lru-cache.js';
import { CACHE_ENTRY_BYTES } from './memory-estimates.js';
import type { ResolvedEnvironment } from './resolved-environment.js';

export interface ParsedFile {
  documents: ConfigDocument[];
  /** The file's size. */
  bytes: number;
  /** Estimated memory of its documents (memory-estimates.ts). */
  weight: number;
}

export interface EnvironmentCacheLimits {
  /** Environments kept (confbus.server.cache.max-entries); parsed files: as many, and at least 1,000. */
  maxEntries: number;
  /** Estimated bytes of the environments kept, and as much again for parsed files (cache.max-bytes). */
  maxBytes: number;
}

export class EnvironmentCaches {
  readonly environments: LruCache<string, ResolvedEnvironment>;
  /** Parsed documents per blob id (or per commit and path), shared by every environment built from a file. */
  readonly parsed: LruCache<string, ParsedFile>;
  private namespaces = 0;

  constructor(limits: EnvironmentCacheLimits) {
    this.environments = new LruCache(limits.maxEntries, {
      maxWeight: limits.maxBytes,
      weigh: (resolved) => resolved.estimatedBytes,
    });
    this.parsed = new LruCache(Math.max(1000, limits.maxEntries), {
      maxWeight: limits.maxBytes,
      weigh: (file) => CACHE_ENTRY_BYTES + file.weight,
    });
  }

  /** A key prefix of its own for each user of the caches: two repositories may hold the same commit. */
  namespace(): string {
    return `${this.namespaces++}\u0001`;
  }
}
