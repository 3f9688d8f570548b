/**
 * A database backend (JDBC, Redis) as the repository port: property sources instead of files, and a revision
 * that says whether what was served is still what the database holds.
 *
 * A database has no commits, so the revision is a generation: a 40-hex id that changes when a check finds the
 * data changed. A check re-reads what was served under the current generation (each distinct query, kept
 * with a digest of its answer) and compares; any difference starts a new generation, so the environment cache
 * (keyed by revision) is bypassed and watchers and the console hear `onChecked(true)`, as after a Git fetch
 * that moved refs. When checks run is Git's refresh-rate rule: 0 = before every request (concurrent requests
 * share one check, so Spring's read-per-request freshness is kept), N = at most one check per N seconds,
 * < 0 = only on refreshNow() (POST /monitor, a database notification). Past MAX_TRACKED queries a check
 * cannot tell, so it starts a new generation every time: more reads, never a stale answer.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ConfbusError, type Logger, type PropertySource } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type {
  ConfigRepository,
  PropertySourceQuery,
  PropertySourceReader,
  RepositoryHealth,
  RepositoryRefresh,
  ResolvedRevision,
} from '../environment/config-repository.js';
import { serverErrors } from '../errors.js';
import { CoalescedTask } from '../support/coalesced-task.js';

/** Distinct queries a check re-reads; beyond, every check starts a new generation. */
const MAX_TRACKED = 5_000;

/** A database's property sources: what one backend (jdbc/, redis/) implements. */
export interface PropertySourceStore {
  /** Where the data is, credentials stripped: health and error messages. */
  readonly description: string;
  /** Spring's property sources for a query, highest precedence first. */
  read(query: PropertySourceQuery): Promise<PropertySource[]>;
  /** Opens a connection and checks the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseRepositoryOptions {
  store: PropertySourceStore;
  /** The label used when a request names none. */
  defaultLabel: string;
  /** Seconds between checks; 0 = before every request; < 0 = only when told (refreshNow). */
  refreshRateSeconds: number;
  logger: Logger;
}

export class DatabaseRepository implements ConfigRepository, RepositoryRefresh, PropertySourceReader {
  readonly refresh: RepositoryRefresh = this;
  readonly propertySources: PropertySourceReader = this;
  /** Random per process: a generation id never repeats one served before a restart. */
  private readonly nonce = randomBytes(8).toString('hex');
  private generation = 0;
  private commit: string;
  /** Query key → digest of the answer served under the current generation. */
  private tracked = new Map<string, { query: PropertySourceQuery; digest: string }>();
  private overflowed = false;
  private readonly check = new CoalescedTask(() => this.runCheck());
  private readonly listeners: ((changed: boolean) => void)[] = [];
  private lastCheckMonotonic: number | undefined;
  private lastCheckAt: Date | undefined;
  private lastSuccessAt: Date | undefined;
  private lastError: string | undefined;
  private staleSince: Date | undefined;
  private checks = 0;
  private reachable = false;

  constructor(private readonly options: DatabaseRepositoryOptions) {
    this.commit = this.idOf(0);
  }

  async resolve(label: string | null): Promise<ResolvedRevision> {
    if (this.due()) await this.check.requestFresh();
    return this.revision(label);
  }

  resolveNow(label: string | null): ResolvedRevision | undefined {
    return this.due() ? undefined : this.revision(label);
  }

  listFiles(): Promise<readonly string[]> {
    return Promise.resolve([]);
  }

  readFile(): Promise<Buffer | undefined> {
    return Promise.resolve(undefined);
  }

  /** Reads the sources and remembers the answer, so the next check can tell whether it changed. */
  async read(query: PropertySourceQuery, commit: string): Promise<PropertySource[]> {
    const sources = await this.readStore(query);
    if (commit === this.commit) this.track(query, sources);
    return sources;
  }

  async start(): Promise<void> {
    try {
      await this.options.store.ping();
      this.succeeded();
    } catch (error) {
      // Spring starts with its database down too (a pool connects lazily): requests fail until it answers.
      this.failed(error);
      this.options.logger.warn(
        { err: this.lastError },
        `${this.options.store.description} does not answer yet; requests fail until it does`,
      );
    }
  }

  health(): RepositoryHealth {
    return {
      uri: this.options.store.description,
      available: this.reachable,
      ...(this.lastCheckAt ? { lastCheckAt: this.lastCheckAt } : {}),
      ...(this.lastSuccessAt ? { lastSuccessAt: this.lastSuccessAt } : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
      stale: this.staleSince !== undefined,
      ...(this.staleSince ? { staleSince: this.staleSince } : {}),
      checks: this.checks,
      fetches: this.generation,
    };
  }

  async refreshNow(): Promise<{ readonly stale: boolean }> {
    await this.check.requestFresh();
    return { stale: this.staleSince !== undefined };
  }

  resolveFetched(label: string | null): Promise<ResolvedRevision> {
    return Promise.resolve(this.revision(label));
  }

  onChecked(listener: (changed: boolean) => void): void {
    this.listeners.push(listener);
  }

  close(): Promise<void> {
    return this.options.store.close();
  }

  private revision(label: string | null): ResolvedRevision {
    return {
      label: label ?? this.options.defaultLabel,
      commit: this.commit,
      stale: this.staleSince !== undefined,
    };
  }

  private due(): boolean {
    const rate = this.options.refreshRateSeconds;
    if (rate < 0) return false;
    if (rate === 0 || this.lastCheckMonotonic === undefined) return true;
    return performance.now() - this.lastCheckMonotonic >= rate * 1000;
  }

  private async readStore(query: PropertySourceQuery): Promise<PropertySource[]> {
    try {
      const sources = await this.options.store.read(query);
      this.succeeded();
      return sources;
    } catch (error) {
      this.failed(error);
      throw new ConfbusError(
        serverErrors.CONFBUS_REPOSITORY_UNAVAILABLE,
        `${this.options.store.description}: ${this.lastError ?? 'read failed'}`,
      );
    }
  }

  private track(query: PropertySourceQuery, sources: PropertySource[]): void {
    const key = queryKey(query);
    if (this.tracked.has(key)) return;
    if (this.tracked.size >= MAX_TRACKED) {
      this.overflowed = true;
      return;
    }
    this.tracked.set(key, { query, digest: digestOf(sources) });
  }

  /** Re-reads every query served under this generation; a new generation when any answer differs. */
  private async runCheck(): Promise<void> {
    this.checks++;
    this.lastCheckAt = new Date();
    this.lastCheckMonotonic = performance.now();
    let changed = this.overflowed;
    try {
      for (const { query, digest } of changed ? [] : this.tracked.values()) {
        if (digestOf(await this.options.store.read(query)) !== digest) {
          changed = true;
          break;
        }
      }
      if (this.tracked.size === 0) await this.options.store.ping();
      this.succeeded();
    } catch (error) {
      // Nothing is known about the data: the generation stays, requests read (and fail) as the database does.
      this.failed(error);
      this.staleSince ??= new Date();
      for (const listener of this.listeners) listener(false);
      return;
    }
    if (changed) {
      this.generation++;
      this.commit = this.idOf(this.generation);
      this.tracked = new Map();
      this.overflowed = false;
    }
    for (const listener of this.listeners) listener(changed);
  }

  private succeeded(): void {
    this.reachable = true;
    this.lastSuccessAt = new Date();
    this.lastError = undefined;
    this.staleSince = undefined;
  }

  private failed(error: unknown): void {
    this.lastError = messageOf(error);
  }

  private idOf(generation: number): string {
    return createHash('sha1').update(`${this.nonce}:${generation}`).digest('hex');
  }
}

function queryKey(query: PropertySourceQuery): string {
  return [query.applications.join(','), query.profiles.join(','), query.label].join('\u0000');
}

/** The answer's content, names and order included. */
function digestOf(sources: PropertySource[]): string {
  return createHash('sha1')
    .update(JSON.stringify(sources.map((source) => [source.name, [...source.source]])))
    .digest('hex');
}
