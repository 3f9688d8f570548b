/**
 * The client: fetches configuration before the service starts, serves typed reads, and refreshes
 * at run time — atomically, and only rebuilding the refreshable components a change concerns.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  defaultBusId,
  maskUriUserInfo,
  resolveSettings,
  type PropertyValue,
  type SettingValue,
  type Settings,
} from '@confbus/core';
import { pino } from 'pino';
import { readBackup, writeBackup } from './backup-store.js';
import { createClientDecryptor, decryptedLayer, type ClientDecryptor } from './cipher-values.js';
import { ClientBus, type BusHealth } from './bus/client-bus.js';
import { clientSettingSpecs, readClientSettings, type ClientSettings } from './client-settings.js';
import {
  changedKeys,
  ConfigSnapshot,
  localSettingsLayer,
  mapLayer,
  type ConfigSourceKind,
  type PropertyLayer,
  type SnapshotMeta,
} from './config-snapshot.js';
import {
  isAffected,
  SnapshotView,
  type BoundObject,
  type ConfigSchema,
  type ConfigView,
} from './config-view.js';
import { ConfigClientError } from './errors.js';
import {
  buildOn,
  isPromiseLike,
  RefreshableHolder,
  type PendingBuild,
  type Refreshable,
  type RefreshableFactory,
  type RefreshableOptions,
} from './refreshable.js';
import { fetchEnvironment, type RemoteEnvironment } from './remote-environment.js';
import { SafetyNetPoll } from './safety-net-poll.js';

/** The logging the client needs; a pino logger fits. Messages never contain secret values. */
export interface ClientLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ConfigClientOptions {
  /** Command-line arguments, `--key=value` (default: none; pass `process.argv.slice(2)`). */
  readonly args?: readonly string[];
  /** Environment variables (default: `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Programmatic settings, between arguments and environment variables. */
  readonly overrides?: Readonly<Record<string, SettingValue | undefined>>;
  /** An application's own defaults: below every source (e.g. its management exposure list). */
  readonly defaults?: Readonly<Record<string, SettingValue>>;
  /** Where `application.yml` is looked for (default: `process.cwd()`). */
  readonly cwd?: string;
  readonly logger?: ClientLogger;
}

export interface RefreshEvent {
  readonly keys: readonly string[];
  readonly version: string | null;
}

export interface ConfigClientEvents {
  refresh: [RefreshEvent];
  error: [ConfigClientError];
}

export interface ConfigStatus extends SnapshotMeta {
  /** Why the last refresh failed, until a refresh succeeds. */
  readonly lastRefreshError: string | undefined;
}

/** What `refreshable` gives: the holder for a sync factory, a promise of it for an async one. */
export type RefreshableResult<R> = R extends PromiseLike<infer T> ? Promise<Refreshable<T>> : Refreshable<R>;

/** The bus as the client sees it: off, waiting for `setLocalServerPort` (its id needs the port), or running. */
export type BusState =
  | { readonly state: 'disabled' }
  | { readonly state: 'waiting-for-port' }
  | { readonly state: 'started'; readonly bus: ClientBus };

/** `refreshIfVersionChanged()`'s answer when the server had a new version. */
export interface VersionCatchUp {
  readonly keys: string[];
  readonly from: string | null;
  readonly to: string | null;
}

interface Fetched {
  readonly env: RemoteEnvironment;
  readonly uri: string;
}

export class ConfigClient extends EventEmitter<ConfigClientEvents> implements ConfigView {
  #snapshot: ConfigSnapshot;
  readonly #view: SnapshotView;
  readonly #holders: Array<RefreshableHolder<unknown>> = [];
  #running: Promise<string[]> | undefined;
  #queued: Promise<string[]> | undefined;
  readonly #refreshCounts = { success: 0, failure: 0 };
  #lastRefreshError: string | undefined;
  #warnedOmittedSecrets = false;
  #closed = false;
  #bus: BusState;
  #busStarting: Promise<void> | undefined;
  #poll: SafetyNetPoll | undefined;
  readonly #startedAt = Date.now();

  private constructor(
    readonly settings: ClientSettings,
    readonly localSettings: Settings,
    private readonly localLayer: PropertyLayer,
    /** The logger the client writes to (pino unless one was passed in); services may share it. */
    readonly logger: ClientLogger,
    private readonly decryptor: ClientDecryptor,
    initial: ConfigSnapshot,
  ) {
    super();
    this.#snapshot = initial;
    this.#view = new SnapshotView(() => this.#snapshot);
    this.#bus = settings.bus.enabled ? { state: 'waiting-for-port' } : { state: 'disabled' };
  }

  /** Resolves the local settings, fetches the remote configuration (with fail-fast/backup rules), and returns a ready client. */
  static async start(options: ConfigClientOptions = {}): Promise<ConfigClient> {
    const env = options.env ?? process.env;
    const localSettings = resolveLocalSettings(options, env);
    const settings = readClientSettings(localSettings);
    const logger =
      options.logger ?? pino({ level: localSettings.optionalString('logging.level.root') ?? 'info' });
    const localLayer = localSettingsLayer(localSettings, env);
    const decryptor = await createClientDecryptor(settings, options.cwd ?? process.cwd(), (message) =>
      logger.warn(message),
    );

    let snapshot: ConfigSnapshot;
    let fetched: Fetched | undefined;
    try {
      fetched = await fetchWithRetry(settings, logger);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (settings.failFast) {
        throw new ConfigClientError(
          'CONFBUS_FAIL_FAST',
          `Could not locate PropertySource and the fail fast property is set, failing: ${reason}`,
          { cause: error },
        );
      }
      logger.warn(`Could not locate PropertySource (${reason})`);
    }
    if (fetched) {
      snapshot = buildSnapshot(fetched.env, 'server', localLayer, settings, decryptor);
    } else {
      snapshot = await snapshotFromBackup(settings, localLayer, logger, decryptor);
    }
    const client = new ConfigClient(settings, localSettings, localLayer, logger, decryptor, snapshot);
    if (fetched) await client.saveBackup(fetched.env);
    client.#poll = new SafetyNetPoll({ check: () => client.refreshIfVersionChanged() }, logger, {
      interval: settings.poll.interval,
      retryMin: settings.poll.retryInterval,
      startStale: !fetched,
    });
    client.#poll.start();
    // The bus id holds the port (Spring: local.server.port, else server.port, else 8080). With
    // server.port=0 it is known only once the app listens: then setLocalServerPort() starts the bus.
    if (settings.bus.enabled) {
      const port = client.getNumber('server.port');
      if (settings.bus.id !== undefined || port !== 0) await client.#startBus(port ?? 8080);
      else logger.info('Bus enabled; it connects once the application reports its port (setLocalServerPort)');
    }
    return client;
  }

  // ---- bus ----

  /** The bus state; `bus` is the running member, if any. */
  get busState(): BusState {
    return this.#bus;
  }

  get bus(): ClientBus | undefined {
    return this.#bus.state === 'started' ? this.#bus.bus : undefined;
  }

  /** The `bus` health component, or undefined when the bus is disabled. */
  busHealth(): BusHealth | { status: 'UNKNOWN'; details: { reason: string } } | undefined {
    if (this.#bus.state === 'disabled') return undefined;
    if (this.#bus.state === 'waiting-for-port') {
      return { status: 'UNKNOWN', details: { reason: 'waiting for the application to report its port' } };
    }
    return this.#bus.bus.health();
  }

  /**
   * Tells the client the port the application listens on (Spring's `local.server.port`). Starts
   * the bus if it was waiting for it; resolves once connected or the broker was found down.
   */
  async setLocalServerPort(port: number): Promise<void> {
    if (this.#bus.state === 'waiting-for-port' && !this.#closed) await this.#startBus(port);
    else await this.#busStarting;
  }

  #startBus(port: number): Promise<void> {
    this.#busStarting ??= (async () => {
      const settings = this.settings.bus;
      const busId =
        settings.id ??
        defaultBusId({
          applicationName: this.settings.applicationName,
          profiles: [...this.settings.profiles],
          port,
        });
      const bus = await ClientBus.start({
        settings,
        busId,
        identity: {
          application: this.settings.name,
          profiles: this.settings.profiles,
          label: this.settings.labels[0] ?? null,
          startedAt: this.#startedAt,
        },
        configNames: this.settings.name.split(',').map((name) => name.trim()),
        logger: this.logger,
        target: {
          refresh: () => this.refresh(),
          refreshIfVersionChanged: () => this.refreshIfVersionChanged(),
          currentVersion: () => this.#snapshot.meta.version,
        },
      });
      this.#bus = { state: 'started', bus };
      // The fleet view shows the version each node serves: tell it after every refresh, bus-driven or not.
      this.on('refresh', () => void bus.announcePresence());
      if (this.#closed) await bus.close();
    })();
    return this.#busStarting;
  }

  // ---- reads (always the current snapshot) ----

  get(key: string): PropertyValue | undefined {
    return this.#view.get(key);
  }
  has(key: string): boolean {
    return this.#view.has(key);
  }
  getString(key: string): string | undefined;
  getString(key: string, defaultValue: string): string;
  getString(key: string, defaultValue?: string): string | undefined {
    return defaultValue === undefined ? this.#view.getString(key) : this.#view.getString(key, defaultValue);
  }
  getNumber(key: string): number | undefined;
  getNumber(key: string, defaultValue: number): number;
  getNumber(key: string, defaultValue?: number): number | undefined {
    return defaultValue === undefined ? this.#view.getNumber(key) : this.#view.getNumber(key, defaultValue);
  }
  getBoolean(key: string): boolean | undefined;
  getBoolean(key: string, defaultValue: boolean): boolean;
  getBoolean(key: string, defaultValue?: boolean): boolean | undefined {
    return defaultValue === undefined ? this.#view.getBoolean(key) : this.#view.getBoolean(key, defaultValue);
  }
  getOrThrow(key: string): PropertyValue {
    return this.#view.getOrThrow(key);
  }
  bind(prefix: string): BoundObject;
  bind<T>(prefix: string, schema: ConfigSchema<T>): T;
  bind<T>(prefix: string, schema?: ConfigSchema<T>): T | BoundObject {
    return schema ? this.#view.bind(prefix, schema) : this.#view.bind(prefix);
  }

  /** A view pinned to the current snapshot: several reads through it never straddle a refresh. */
  view(): ConfigView {
    const pinned = this.#snapshot;
    return new SnapshotView(() => pinned);
  }

  /** Where the configuration came from, its version, and the last refresh failure. */
  get status(): ConfigStatus {
    return { ...this.#snapshot.meta, lastRefreshError: this.#lastRefreshError };
  }

  /** The property sources, highest precedence first, with raw (unresolved) values. */
  propertySources(): Array<{ name: string; properties: Record<string, PropertyValue> }> {
    return this.#snapshot.layers.map((layer) => {
      const properties: Record<string, PropertyValue> = {};
      for (const key of layer.keys()) {
        const value = layer.get(key);
        if (value !== undefined) properties[key] = value;
      }
      return { name: layer.name, properties };
    });
  }

  // ---- refreshable components ----

  /**
   * A component built from configuration and rebuilt after a refresh that changed a key it read.
   * A synchronous factory gives the holder at once; an async one gives a promise of it.
   */
  refreshable<R>(
    factory: (view: ConfigView) => R,
    options?: RefreshableOptions<Awaited<R>>,
  ): RefreshableResult<R>;
  refreshable<T>(
    factory: RefreshableFactory<T>,
    options: RefreshableOptions<T> = {},
  ): Refreshable<T> | Promise<Refreshable<T>> {
    const register = (first: PendingBuild<T>) => {
      const holder = new RefreshableHolder(factory, first, options);
      this.#holders.push(holder as RefreshableHolder<unknown>);
      return holder;
    };
    const snapshot = this.#snapshot;
    const first = buildOn(factory, snapshot);
    if (!isPromiseLike(first)) return register(first);
    // An async build may finish after a refresh swapped snapshots: build again on the new one.
    const settle = async (build: PendingBuild<T>, builtOn: ConfigSnapshot): Promise<Refreshable<T>> => {
      const current = this.#snapshot;
      return builtOn === current ? register(build) : settle(await buildOn(factory, current), current);
    };
    return first.then((build) => settle(build, snapshot));
  }

  // ---- refresh ----

  /**
   * Re-fetches and applies the configuration; resolves with the changed keys. Calls made while a
   * refresh runs share one follow-up refresh, so each caller sees a fetch that started after its call.
   */
  refresh(): Promise<string[]> {
    if (this.#closed) {
      return Promise.reject(new ConfigClientError('CONFBUS_CLIENT_CLOSED', 'The config client is closed'));
    }
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
   * Asks the server for the current version and refreshes only if it differs from ours; resolves
   * with `null` when it is the same. Used after a bus outage to catch up on missed refresh events.
   */
  async refreshIfVersionChanged(): Promise<VersionCatchUp | null> {
    // Let a refresh in progress land first, so "ours" is the newest we have.
    await Promise.allSettled([this.#running, this.#queued]);
    const from = this.#snapshot.meta.version;
    const { env } = await fetchAnyUri(this.settings, this.logger);
    if (env.version !== null && env.version === from) return null;
    const keys = await this.refresh();
    return { keys, from, to: this.#snapshot.meta.version };
  }

  /** Refreshes finished since start, by outcome (read by the client's metrics). */
  get refreshCounts(): Readonly<{ success: number; failure: number }> {
    return this.#refreshCounts;
  }

  #startRefresh(): Promise<string[]> {
    const run = this.#refreshOnce()
      .then(
        (keys) => {
          this.#refreshCounts.success++;
          return keys;
        },
        (error: unknown) => {
          this.#refreshCounts.failure++;
          throw error;
        },
      )
      .finally(() => {
        if (this.#running === run) this.#running = undefined;
      });
    this.#running = run;
    return run;
  }

  async #refreshOnce(): Promise<string[]> {
    const previous = this.#snapshot;
    let fetched: Fetched;
    try {
      fetched = await fetchAnyUri(this.settings, this.logger);
    } catch (error) {
      throw this.#refreshFailed(`could not fetch the configuration: ${messageOf(error)}`, error);
    }
    let next: ConfigSnapshot;
    try {
      next = buildSnapshot(fetched.env, 'server', this.localLayer, this.settings, this.decryptor);
    } catch (error) {
      throw this.#refreshFailed(messageOf(error), error);
    }
    const keys = changedKeys(previous, next);
    // Build every affected component on the new snapshot before anything becomes visible. The
    // list is re-read after each await: a component registered meanwhile was built on the old one.
    const builds: Array<[RefreshableHolder<unknown>, PendingBuild<unknown>]> = [];
    const checked = new Set<RefreshableHolder<unknown>>();
    for (let holder = this.#nextUnchecked(checked); holder; holder = this.#nextUnchecked(checked)) {
      checked.add(holder);
      if (!isAffected(holder.tracker, keys)) continue;
      try {
        builds.push([holder, await holder.prepare(next)]);
      } catch (error) {
        throw this.#refreshFailed(`a refreshable component failed to rebuild: ${messageOf(error)}`, error);
      }
    }
    if (this.#snapshot !== previous) {
      // Cannot happen while refreshes are serialised; guard against losing a newer state anyway.
      throw this.#refreshFailed('the configuration changed while refreshing', undefined);
    }

    // The swap: one synchronous step, so no reader sees half old, half new.
    this.#snapshot = next;
    const replaced = builds.map(([holder, build]) => [holder, holder.commit(build)] as const);
    this.#lastRefreshError = undefined;

    for (const [holder, old] of replaced) {
      holder.dispose(old).catch((error: unknown) => {
        this.logger.warn(`Disposing a replaced refreshable component failed: ${messageOf(error)}`);
      });
    }
    this.logger.info(`Refresh keys changed: [${keys.join(', ')}]`);
    await this.saveBackup(fetched.env);
    this.emit('refresh', { keys, version: next.meta.version });
    return keys;
  }

  #nextUnchecked(checked: Set<RefreshableHolder<unknown>>): RefreshableHolder<unknown> | undefined {
    return this.#holders.find((holder) => !checked.has(holder));
  }

  #refreshFailed(reason: string, cause: unknown): ConfigClientError {
    const version = this.#snapshot.meta.version ?? 'none';
    const error = new ConfigClientError(
      'CONFBUS_REFRESH_FAILED',
      `Refresh failed, keeping the current configuration (version ${version}): ${reason}`,
      { cause },
    );
    this.#lastRefreshError = error.message;
    this.logger.warn(error.message);
    // An 'error' event without a listener would throw from emit(); the rejection already reports it.
    if (this.listenerCount('error') > 0) this.emit('error', error);
    return error;
  }

  private async saveBackup(env: RemoteEnvironment): Promise<void> {
    const { file, key, plaintextSecrets } = this.settings.backup;
    if (!file) return;
    try {
      const { omittedSecrets } = await writeBackup(file, env, { key, plaintextSecrets });
      if (omittedSecrets > 0 && !this.#warnedOmittedSecrets) {
        this.#warnedOmittedSecrets = true;
        this.logger.warn(
          `Backup ${file}: ${omittedSecrets} secret value(s) left out; set confbus.client.backup.key to encrypt them`,
        );
      }
    } catch (error) {
      this.logger.warn(`Could not write the configuration backup ${file}: ${messageOf(error)}`);
    }
  }

  /** Stops accepting refreshes and waits for one in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#poll?.stop();
    await this.#busStarting?.catch(() => undefined);
    await this.bus?.close();
    await Promise.allSettled([this.#running, this.#queued]);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Arguments and environment name the settings file; then everything is resolved with it. */
function resolveLocalSettings(
  options: ConfigClientOptions,
  env: Readonly<Record<string, string | undefined>>,
): Settings {
  const input = { args: options.args ?? [], env, overrides: options.overrides ?? {} };
  const defaults = options.defaults ?? {};
  const specs = clientSettingSpecs.map((spec) =>
    Object.hasOwn(defaults, spec.key) ? { ...spec, default: defaults[spec.key] } : spec,
  );
  const first = resolveSettings(specs, input, { unknownKeys: 'keep' });
  const explicit = first.optionalString('spring.config.location');
  const path = resolvePath(options.cwd ?? process.cwd(), explicit ?? 'application.yml');
  if (!explicit && !existsSync(path)) return first;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigClientError(
      'CONFBUS_CONFIG_FETCH',
      `Cannot read settings file ${path}: ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
  return resolveSettings(specs, { ...input, file: { path, text } }, { unknownKeys: 'keep' });
}

/** The snapshot for what the server sent; `{cipher}` values are decrypted into a layer on top (or throw). */
function buildSnapshot(
  env: RemoteEnvironment,
  source: ConfigSourceKind,
  localLayer: PropertyLayer,
  settings: ClientSettings,
  decryptor: ClientDecryptor,
): ConfigSnapshot {
  const clientInfo: Record<string, PropertyValue> = {};
  if (env.version !== null) clientInfo['config.client.version'] = env.version;
  if (env.state !== null) clientInfo['config.client.state'] = env.state;
  const layers = [
    mapLayer('configClient', clientInfo),
    ...env.propertySources.map((ps) => mapLayer(`configserver:${ps.name}`, ps.source)),
    localLayer,
  ];
  const decrypted = decryptedLayer(layers, decryptor);
  return new ConfigSnapshot(decrypted ? [decrypted, ...layers] : layers, {
    source,
    name: env.name || settings.name,
    profiles: env.profiles.length > 0 ? env.profiles : settings.profiles,
    label: env.label,
    version: env.version,
    state: env.state,
  });
}

async function snapshotFromBackup(
  settings: ClientSettings,
  localLayer: PropertyLayer,
  logger: ClientLogger,
  decryptor: ClientDecryptor,
): Promise<ConfigSnapshot> {
  const { file, key } = settings.backup;
  if (file) {
    try {
      const backup = await readBackup(file, key);
      for (const warning of backup.warnings) logger.warn(`Backup ${file}: ${warning}`);
      logger.warn(
        `Starting from the last-known-good configuration backup ${file} (saved ${backup.savedAt}, version ${backup.environment.version ?? 'none'})`,
      );
      return buildSnapshot(backup.environment, 'backup', localLayer, settings, decryptor);
    } catch (error) {
      logger.warn(`Cannot use the configuration backup ${file}: ${messageOf(error)}`);
    }
  }
  logger.warn('Starting on local settings only');
  return new ConfigSnapshot([localLayer], {
    source: 'local',
    name: settings.name,
    profiles: settings.profiles,
    label: null,
    version: null,
    state: null,
  });
}

/** One attempt: every URI in order, and per URI every label in order; the first success wins. */
async function fetchAnyUri(settings: ClientSettings, logger: ClientLogger): Promise<Fetched> {
  const reasons: string[] = [];
  const labels = settings.labels.length > 0 ? settings.labels : [undefined];
  for (const uri of settings.uris) {
    logger.info(`Fetching config from server at : ${maskUriUserInfo(uri)}`);
    for (const label of labels) {
      try {
        const env = await fetchEnvironment({
          uri,
          name: settings.name,
          profiles: settings.profiles,
          label,
          username: settings.username,
          password: settings.password,
          connectTimeout: settings.connectTimeout,
          readTimeout: settings.readTimeout,
        });
        logger.info(
          `Located environment: name=${env.name}, profiles=[${env.profiles.join(', ')}], label=${env.label}, version=${env.version}, state=${env.state}`,
        );
        return { env, uri };
      } catch (error) {
        reasons.push(messageOf(error));
      }
    }
  }
  throw new ConfigClientError('CONFBUS_CONFIG_FETCH', reasons.join('; '));
}

/** With fail-fast, retry with exponential backoff (Spring's retry settings); otherwise one attempt. */
async function fetchWithRetry(settings: ClientSettings, logger: ClientLogger): Promise<Fetched> {
  const attempts = settings.failFast ? settings.retry.maxAttempts : 1;
  let wait = settings.retry.initialInterval;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchAnyUri(settings, logger);
    } catch (error) {
      if (attempt >= attempts) throw error;
      logger.warn(
        `Config server attempt ${attempt}/${attempts} failed (${messageOf(error)}); retrying in ${wait} ms`,
      );
      await delay(wait);
      wait = Math.min(Math.round(wait * settings.retry.multiplier), settings.retry.maxInterval);
    }
  }
}
