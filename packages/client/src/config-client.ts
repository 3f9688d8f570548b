/**
 * The client: fetches configuration before the service starts, serves typed reads, and refreshes
 * at run time — atomically, and only rebuilding the refreshable components a change concerns.
 * This is where its parts are wired, top-down, one folder per stage: local settings → fetch/ (the
 * environment source) → snapshot/ (snapshots, live config, refreshables) → backup/ → refresh/ (refresher,
 * safety-net poll) → bus-member/; management/ serves the actuator endpoints over it.
 */
import { type PropertyValue, type Settings, defaultBusId } from '@confbus/core';
import { ClientBus, type BusState } from './bus-member/client-bus.js';
import type { BusHealth, BusWaitingHealth } from './bus-member/client-bus-types.js';
import type { ApplicationConfig } from './application-config.js';
import type { ClientLogger } from './client-logger.js';
import type { ClientSettings } from './client-settings.js';
import { logStarted, prepareClient, type ClientParts, type ConfigClientOptions } from './client-startup.js';
import type { SnapshotMeta } from './snapshot/config-snapshot.js';
import type { EnvironmentSource } from './fetch/environment-source.js';
import type { ConfigClientError } from './errors.js';
import { LiveConfigReads } from './live-config-reads.js';
import type { LiveConfig } from './snapshot/live-config.js';
import type { Refreshable } from './snapshot/refreshable.js';
import { Refresher, type RefreshEvent, type VersionCatchUp } from './refresh/refresher.js';
import { SafetyNetPoll } from './refresh/safety-net-poll.js';
import { ConfigWatcher, type WatchState } from './watch/config-watcher.js';
import { ApplicationHealth, type HealthIndicator } from './rollout-report/application-health.js';
import { RolloutReporter } from './rollout-report/rollout-reporter.js';

export type { BusState } from './bus-member/client-bus.js';
export type { RefreshEvent, VersionCatchUp } from './refresh/refresher.js';
export type { ConfigClientOptions } from './client-startup.js';

export interface ConfigClientEvents {
  refresh: [RefreshEvent];
  error: [ConfigClientError];
  /** A `busshutdown` addressed to this node: the application should shut down gracefully. */
  shutdown: [];
}

export interface ConfigStatus extends SnapshotMeta {
  /** Why the last refresh failed, until a refresh succeeds. */
  readonly lastRefreshError: string | undefined;
}

/** What `refreshable` gives: the holder for a sync factory, a promise of it for an async one. */
export type RefreshableResult<R> = R extends PromiseLike<infer T> ? Promise<Refreshable<T>> : Refreshable<R>;

export class ConfigClient extends LiveConfigReads implements ApplicationConfig {
  readonly #source: EnvironmentSource;
  protected readonly live: LiveConfig;
  protected readonly refresher: Refresher;
  readonly #bus: ClientBus;
  readonly #poll: SafetyNetPoll;
  #closing = false;
  #watch: ConfigWatcher | undefined;
  /** The application's health indicators and error counter (/actuator/health, rollout reports). */
  readonly applicationHealth = new ApplicationHealth();
  readonly #reporter: RolloutReporter;

  private constructor(
    readonly settings: ClientSettings,
    readonly localSettings: Settings,
    /**
     * The logger the client writes to (core's pino logger unless one was passed in); services may share it:
     * `logger.info('text')` and `logger.info({ fields }, 'text')` both work, as with pino.
     */
    readonly logger: ClientLogger,
    parts: ClientParts,
    fetched: boolean,
  ) {
    super();
    this.#source = parts.source;
    this.live = parts.live;
    this.refresher = new Refresher({
      ...parts,
      logger,
      observer: {
        refreshed: (event) => {
          this.#bus.refreshed();
          this.emit('refresh', event);
        },
        failed: (error) => {
          // An 'error' event without a listener would throw from emit(); the rejection already reports it.
          if (this.listenerCount('error') > 0) this.emit('error', error);
        },
      },
    });
    const refresher = this.refresher;
    this.#bus = new ClientBus({
      settings,
      target: {
        refresh: (options) => refresher.refresh({ ...options, trigger: 'bus' }),
        refreshIfVersionChanged: () => refresher.refreshIfVersionChanged('catch-up'),
        currentVersion: () => refresher.currentVersion(),
        applyEnvironment: (values) => {
          parts.snapshots.setBusValues(values);
          return refresher.refresh();
        },
        shutdown: async () => this.requestShutdown(),
        contract: () => parts.live.schemas.contract(),
      },
      logger,
    });
    // A new binding changes the contract: the config servers hear it with a new announcement (one per turn).
    let announcing = false;
    parts.live.schemas.onAdded(() => {
      if (announcing || !settings.bus.enabled) return;
      announcing = true;
      setImmediate(() => {
        announcing = false;
        void this.#bus.announcePresence();
      });
    });
    this.#reporter = new RolloutReporter({
      source: parts.source,
      settings,
      health: this.applicationHealth,
      currentVersion: () => refresher.currentVersion(),
      lastRefreshError: () => refresher.lastError,
      refresh: () => refresher.refreshIfVersionChanged('rollout'),
      logger,
    });
    parts.source.onRolloutNoticed(() => this.#reporter.noticed());
    this.#poll = new SafetyNetPoll({ check: () => this.refresher.refreshIfVersionChanged('poll') }, logger, {
      interval: settings.poll.interval,
      retryMin: settings.poll.retryInterval,
      startStale: !fetched,
    });
  }

  /** Resolves the local settings, fetches the remote configuration (with fail-fast/backup rules), and returns a ready client. */
  static async start(options: ConfigClientOptions = {}): Promise<ConfigClient> {
    const { settings, localSettings, logger, parts, fetched } = await prepareClient(options);
    const client = new ConfigClient(settings, localSettings, logger, parts, !!fetched);
    if (fetched) await parts.backup.save(fetched);
    client.#poll.start();
    if (settings.bus.enabled) await client.#bus.start(client.getNumber('server.port'));
    if (settings.watch.enabled && (!settings.bus.enabled || settings.watch.withBus))
      client.#startWatching(parts);
    logStarted(logger, {
      settings,
      localSettings,
      meta: parts.live.snapshot.meta,
      bus: client.busState.state,
    });
    return client;
  }

  // ---- watch stream (no broker needed) ----

  #startWatching(parts: ClientParts): void {
    const { settings, logger } = this;
    const port = this.getNumber('server.port');
    const { applicationName, profiles } = settings;
    this.#watch = new ConfigWatcher({
      source: parts.source,
      settings: settings.watch,
      target: {
        refresh: (version) => this.refresher.refresh({ atLeast: version, trigger: 'watch' }),
        apply: (environment) => this.refresher.applyDelivered(environment, 'watch'),
        currentVersion: () => this.refresher.currentVersion(),
      },
      serviceId: this.#bus.busId ?? defaultBusId({ applicationName, profiles: [...profiles], port }),
      logger,
    });
    this.#watch.start();
  }

  /** The watch stream's state: `stopped` when not watching (a bus instead, or confbus.client.watch.enabled=false). */
  get watchState(): WatchState {
    return this.#watch?.state ?? 'stopped';
  }

  // ---- health (staged rollouts: docs/rollouts.md) ----

  /**
   * Adds a health indicator: shown as a component of `/actuator/health` (a DOWN one makes it DOWN, 503) and
   * sent with this instance's reports while a staged rollout runs, so a bad configuration is rolled back.
   */
  registerHealthIndicator(name: string, indicator: HealthIndicator): void {
    this.applicationHealth.register(name, indicator);
  }

  /** Counts errors the application saw (e.g. from an HTTP framework's error hook); reported during rollouts. */
  recordError(count = 1): void {
    this.applicationHealth.recordError(count);
  }

  /** True while this instance reports to a staged rollout. */
  get reportingToRollout(): boolean {
    return this.#reporter.reporting;
  }

  // ---- bus ----

  /** The bus state; `bus` is the running member, if any. */
  get busState(): BusState {
    return this.#bus.state;
  }

  /** The bus member once started (undefined while disabled or waiting for the port). */
  get bus(): ClientBus | undefined {
    return this.#bus.state.state === 'started' ? this.#bus : undefined;
  }

  /**
   * The bus member in every state, for the bus endpoints: its operations answer 503 while there is no bus.
   * @internal
   */
  get busMember(): ClientBus {
    return this.#bus;
  }

  /** The `bus` health component, or undefined when the bus is disabled. */
  busHealth(): BusHealth | BusWaitingHealth | undefined {
    return this.#bus.health();
  }

  /**
   * Tells the client the port the application listens on (Spring's `local.server.port`). Starts
   * the bus if it was waiting for it; resolves once connected or the broker was found down.
   */
  setLocalServerPort(port: number): Promise<void> {
    return this.#bus.setLocalServerPort(port);
  }

  /** A `busshutdown` for this node: the application's 'shutdown' listeners stop it; without one, the client closes. */
  requestShutdown(): void {
    this.#closing = true;
    if (this.emit('shutdown')) return;
    this.logger.warn(
      {},
      "busshutdown received, but the application listens for no 'shutdown' event: closing the config client only",
    );
    void this.close();
  }

  /**
   * The property sources, highest precedence first, with raw (unresolved) values; `decryptedKeys` names those
   * that were `{cipher}` text (decrypted by the server or this client): secrets whatever their names. Each
   * source's properties are in the order the server (or file) gave them.
   */
  propertySources(): Array<{
    name: string;
    properties: ReadonlyMap<string, PropertyValue>;
    decryptedKeys?: string[];
  }> {
    return this.live.snapshot.layers.map((layer) => {
      const properties = new Map<string, PropertyValue>();
      for (const key of layer.keys()) {
        const value = layer.get(key);
        if (value !== undefined) properties.set(key, value);
      }
      const decrypted = layer.decryptedKeys;
      return decrypted?.size
        ? { name: layer.name, properties, decryptedKeys: [...decrypted] }
        : { name: layer.name, properties };
    });
  }

  // ---- refresh (reads and refreshable components: LiveConfigReads) ----

  /**
   * Re-fetches and applies the configuration; resolves with the changed keys. Calls made while a
   * refresh runs share one follow-up refresh, so each caller sees a fetch that started after its call.
   */
  refresh(): Promise<string[]> {
    // spring.cloud.config.enabled=false: there is nothing to fetch, so nothing changes.
    return this.settings.enabled ? this.refresher.refresh() : Promise.resolve([]);
  }

  /**
   * Asks the server for the current version and refreshes only if it differs from ours; resolves
   * with `null` when it is the same. Used after a bus outage to catch up on missed refresh events.
   */
  refreshIfVersionChanged(): Promise<VersionCatchUp | null> {
    if (!this.settings.enabled) return Promise.resolve(null);
    return this.refresher.refreshIfVersionChanged('local');
  }

  /** Refreshes finished since start, by outcome (read by the client's metrics). */
  get refreshCounts(): Readonly<{ success: number; failure: number }> {
    return this.refresher.counts;
  }

  /** Whether close() has begun (or a `busshutdown` asked for it): readiness is then OUT_OF_SERVICE. */
  get closing(): boolean {
    return this.#closing;
  }

  /** Stops accepting refreshes and waits for one in progress. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#poll.stop();
    this.#watch?.stop();
    this.#reporter.close();
    const refreshes = this.refresher.close();
    await this.#bus.close();
    await refreshes;
    this.#source.close();
  }
}
