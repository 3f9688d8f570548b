/**
 * The refresh: fetch, build the new snapshot, rebuild the components it concerns, swap, save the backup, tell
 * the observer. Refreshes never overlap: calls made while one runs share one follow-up, so each caller sees a
 * fetch that started after its call. A failure keeps the current configuration and says why. Each refresh
 * logs one INFO line (refresh-log.ts); its details are DEBUG.
 */
import type { Environment, Logger } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { EnvironmentBackup } from '../backup/backup-store.js';
import { changedKeys, type ConfigSnapshot } from '../snapshot/config-snapshot.js';
import type { EnvironmentFetcher } from '../fetch/environment-source.js';
import { ConfigClientError } from '../errors.js';
import type { LiveConfig } from '../snapshot/live-config.js';
import { logRefreshed, mergeTriggers, type RefreshTrigger } from './refresh-log.js';

export type { RefreshTrigger } from './refresh-log.js';

export interface RefreshEvent {
  readonly keys: readonly string[];
  readonly version: string | null;
}

/** `refreshIfVersionChanged()`'s answer when the server had a new version. */
export interface VersionCatchUp {
  readonly keys: string[];
  readonly from: string | null;
  readonly to: string | null;
}

/** Who hears about refreshes: the client's own listeners and its bus member (presence). */
export interface RefreshObserver {
  refreshed(event: RefreshEvent): void;
  failed(error: ConfigClientError): void;
}

export interface RefresherParts {
  readonly source: EnvironmentFetcher;
  readonly snapshots: { fromEnvironment(env: Environment, source: 'server'): ConfigSnapshot };
  readonly live: LiveConfig;
  readonly backup: EnvironmentBackup;
  readonly logger: Logger;
  readonly observer: RefreshObserver;
}

export class Refresher {
  #running: Promise<string[]> | undefined;
  #queued: Promise<string[]> | undefined;
  #lastError: string | undefined;
  readonly #counts = { success: 0, failure: 0 };
  #closed = false;
  /** The newest version hint not yet sent: the next fetch asks the server for at least this commit. */
  #versionHint: string | undefined;
  /** What asked for the next refresh (callers that share one refresh merge here): its log line says so. */
  #nextTrigger: RefreshTrigger | undefined;

  constructor(private readonly parts: RefresherParts) {}

  /** Why the last refresh failed, until a refresh succeeds. */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** Refreshes finished since start, by outcome (read by the client's metrics). */
  get counts(): Readonly<{ success: number; failure: number }> {
    return this.#counts;
  }

  /** The current `config.client.version` (null before any fetch succeeded). */
  currentVersion(): string | null {
    return this.parts.live.snapshot.meta.version;
  }

  /**
   * Re-fetches and applies the configuration; resolves with the changed keys. `atLeast` (a bus event's version
   * hint) asks the server for at least that commit; when this client already serves it and nothing is in
   * flight, there is nothing to fetch. `trigger` (default `local`) picks the wording of the refresh's log line.
   */
  refresh(options: { atLeast?: string | undefined; trigger?: RefreshTrigger } = {}): Promise<string[]> {
    if (this.#closed) {
      return Promise.reject(new ConfigClientError('CONFBUS_CLIENT_CLOSED', 'The config client is closed'));
    }
    const { atLeast, trigger = 'local' } = options;
    const idle = !this.#running && !this.#queued;
    if (atLeast !== undefined) {
      if (idle && this.currentVersion() === atLeast) {
        logRefreshed(this.parts.logger, trigger, [], { from: atLeast, to: atLeast, ms: 0 });
        return Promise.resolve([]);
      }
      this.#versionHint = atLeast;
    }
    this.#nextTrigger = mergeTriggers(this.#nextTrigger, trigger);
    if (this.#queued) return this.#queued;
    if (!this.#running) return this.#startRefresh();
    const after = this.#running.then(
      () => undefined,
      () => undefined,
    );
    this.#queued = after.then(() => {
      this.#queued = undefined;
      return this.#startRefresh();
    });
    return this.#queued;
  }

  /**
   * Applies an environment the server sent with a change (the watch stream, docs/watch.md) exactly as a fetched
   * answer: the same snapshot (client-side decryption included), schemas, components, backup and observer.
   * Only when no refresh runs or waits: one that does fetched, or will fetch, after this answer was sent and
   * must not be overtaken by it, so the change then becomes that refresh's version hint, as without the body.
   * An environment without a version (a server that sends none) is fetched again too: nothing to compare.
   */
  applyDelivered(env: Environment, trigger: RefreshTrigger): Promise<string[]> {
    const idle = !this.#running && !this.#queued;
    if (this.#closed || !idle || env.version === null)
      return this.refresh({ atLeast: env.version ?? undefined, trigger });
    if (this.currentVersion() === env.version) {
      logRefreshed(this.parts.logger, trigger, [], { from: env.version, to: env.version, ms: 0 });
      return Promise.resolve([]);
    }
    return this.#startRefresh(env, mergeTriggers(this.#nextTrigger, trigger));
  }

  /**
   * Asks the server for the current version and refreshes only if it differs from ours; resolves with `null`
   * when it is the same. The safety-net poll (`poll`) and the bus's catch-up after an outage (`catch-up`) use
   * it. The answer that showed the move is applied as is unless another refresh started meanwhile (then that
   * one's follow-up fetches again): one fetch per refresh, not two.
   */
  async refreshIfVersionChanged(trigger: RefreshTrigger = 'poll'): Promise<VersionCatchUp | null> {
    // Let a refresh in progress land first, so "ours" is the newest we have.
    await Promise.allSettled([this.#running, this.#queued]);
    const from = this.currentVersion();
    const env = await this.parts.source.fetch();
    if (env.version !== null && env.version === from) return null;
    const idle = !this.#running && !this.#queued && !this.#closed;
    const keys = idle
      ? await this.#startRefresh(env, mergeTriggers(this.#nextTrigger, trigger))
      : await this.refresh({ trigger });
    return { keys, from, to: this.currentVersion() };
  }

  /** Stops accepting refreshes and waits for one in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([this.#running, this.#queued]);
  }

  /** `fetched`: an answer fetched just now, applied instead of fetching again. */
  #startRefresh(fetched?: Environment, trigger = this.#nextTrigger ?? 'local'): Promise<string[]> {
    this.#nextTrigger = undefined;
    const run = this.#refreshOnce(trigger, fetched)
      .then(
        (keys) => {
          this.#counts.success++;
          return keys;
        },
        (error: unknown) => {
          this.#counts.failure++;
          throw error;
        },
      )
      .finally(() => {
        if (this.#running === run) this.#running = undefined;
      });
    this.#running = run;
    return run;
  }

  async #refreshOnce(trigger: RefreshTrigger, fetched: Environment | undefined): Promise<string[]> {
    const { snapshots, live, backup, logger, observer } = this.parts;
    const started = performance.now();
    const previous = live.snapshot;
    const env = fetched ?? (await this.#fetch());
    let next: ConfigSnapshot;
    try {
      next = snapshots.fromEnvironment(env, 'server');
    } catch (error) {
      throw this.#failed(messageOf(error), error);
    }
    // The application's own schemas judge the new values before anything is applied (item 5 of issue #26).
    const rejection = live.schemas.rejectionOf(next);
    if (rejection !== undefined)
      throw this.#failed(
        `the new configuration is rejected by the application's schema: ${rejection}`,
        undefined,
      );
    const keys = changedKeys(previous, next);
    let prepared;
    try {
      prepared = await live.prepare(next, keys);
    } catch (error) {
      throw this.#failed(`a refreshable component failed to rebuild: ${messageOf(error)}`, error);
    }
    if (live.snapshot !== previous) {
      // Cannot happen while refreshes are serialised; guard against losing a newer state anyway.
      throw this.#failed('the configuration changed while refreshing', undefined);
    }
    live.commit(prepared);
    this.#lastError = undefined;
    const versions = { from: previous.meta.version, to: next.meta.version };
    logRefreshed(logger, trigger, keys, { ...versions, ms: Math.round(performance.now() - started) });
    await backup.save(env);
    observer.refreshed({ keys, version: next.meta.version });
    return keys;
  }

  /** One fetch, with the pending version hint. */
  async #fetch(): Promise<Environment> {
    const atLeast = this.#versionHint;
    this.#versionHint = undefined;
    try {
      return await this.parts.source.fetch(atLeast);
    } catch (error) {
      throw this.#failed(`could not fetch the configuration: ${messageOf(error)}`, error);
    }
  }

  #failed(reason: string, cause: unknown): ConfigClientError {
    const version = this.currentVersion() ?? 'none';
    const error = new ConfigClientError(
      'CONFBUS_REFRESH_FAILED',
      `Refresh failed, keeping the current configuration (version ${version}): ${reason}`,
      { cause },
    );
    this.#lastError = error.message;
    this.parts.logger.warn({}, error.message);
    this.parts.observer.failed(error);
    return error;
  }
}
