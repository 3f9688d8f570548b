/**
 * The test double for applications' unit tests: the client's API over values kept in memory, with no server,
 * settings file or environment. It runs the client's own refresh (refresher.ts) against an in-memory answer,
 * so refreshable components are rebuilt, events emitted and failures reported exactly as in production.
 */
import { EventEmitter } from 'node:events';
import { silentLogger, type Environment, type Logger, type PropertyValue } from '@confbus/core';
import type { ApplicationConfig } from '../application-config.js';
import { clientLogger, type ClientLogger } from '../client-logger.js';
import type { ConfigClientEvents, ConfigStatus, RefreshableResult } from '../config-client.js';
import { Refresher } from '../refresh/refresher.js';
import { ConfigSnapshot, mapLayer } from '../snapshot/config-snapshot.js';
import type { BoundObject, BoundValue, ConfigSchema, ConfigView } from '../snapshot/config-view.js';
import { LiveConfig } from '../snapshot/live-config.js';
import type { RefreshableFactory, RefreshableOptions, Refreshable } from '../snapshot/refreshable.js';
import { flattenValues, type TestValues } from './flatten-values.js';

export interface TestConfigOptions {
  /** The application name reported by `status` (default `application`). */
  readonly name?: string;
  /** The profiles reported by `status` (default `['default']`). */
  readonly profiles?: readonly string[];
  /** Where `client.logger` writes (default: nowhere). */
  readonly logger?: Logger;
}

export class TestConfig extends EventEmitter<ConfigClientEvents> implements ApplicationConfig {
  readonly logger: ClientLogger;
  #values: Record<string, PropertyValue>;
  #version = 0;
  readonly #live: LiveConfig;
  readonly #refresher: Refresher;
  readonly #name: string;
  readonly #profiles: string[];

  constructor(values: TestValues, options: TestConfigOptions = {}) {
    super();
    this.logger = clientLogger(options.logger ?? silentLogger);
    this.#name = options.name ?? 'application';
    this.#profiles = [...(options.profiles ?? ['default'])];
    this.#values = flattenValues(values);
    const snapshots = { fromEnvironment: (env: Environment) => this.#snapshotOf(env) };
    this.#live = new LiveConfig(snapshots.fromEnvironment(this.#environment()), this.logger);
    this.#refresher = new Refresher({
      source: { fetch: async () => this.#environment() },
      snapshots,
      live: this.#live,
      backup: { save: async () => undefined },
      logger: this.logger,
      observer: {
        refreshed: (event) => this.emit('refresh', event),
        failed: (error) => {
          if (this.listenerCount('error') > 0) this.emit('error', error);
        },
      },
    });
  }

  /**
   * Replaces the values (when given) and refreshes as the client does after a push: components that read a
   * changed key are rebuilt, a `refresh` event carries the changed keys. Resolves with them.
   */
  refresh(values?: TestValues): Promise<string[]> {
    if (values !== undefined) this.#values = flattenValues(values);
    return this.#refresher.refresh();
  }

  get status(): ConfigStatus {
    return { ...this.#live.snapshot.meta, lastRefreshError: this.#refresher.lastError };
  }

  get(key: string): PropertyValue | undefined {
    return this.#live.view.get(key);
  }
  has(key: string): boolean {
    return this.#live.view.has(key);
  }
  getString(key: string): string | undefined;
  getString(key: string, defaultValue: string): string;
  getString(key: string, defaultValue?: string): string | undefined {
    const value = this.#live.view.getString(key);
    return value ?? defaultValue;
  }
  getNumber(key: string): number | undefined;
  getNumber(key: string, defaultValue: number): number;
  getNumber(key: string, defaultValue?: number): number | undefined {
    return this.#live.view.getNumber(key) ?? defaultValue;
  }
  getBoolean(key: string): boolean | undefined;
  getBoolean(key: string, defaultValue: boolean): boolean;
  getBoolean(key: string, defaultValue?: boolean): boolean | undefined {
    return this.#live.view.getBoolean(key) ?? defaultValue;
  }
  getOrThrow(key: string): PropertyValue {
    return this.#live.view.getOrThrow(key);
  }
  bind<R extends BoundObject | BoundValue[] = BoundObject>(prefix: string): R;
  bind<T>(prefix: string, schema: ConfigSchema<T>): T;
  bind<T>(prefix: string, schema?: ConfigSchema<T>): T | BoundObject | BoundValue[] {
    return schema ? this.#live.view.bind(prefix, schema) : this.#live.view.bind(prefix);
  }
  view(): ConfigView {
    return this.#live.pinnedView();
  }
  refreshable<R>(
    factory: (view: ConfigView) => R,
    options?: RefreshableOptions<Awaited<R>>,
  ): RefreshableResult<R>;
  refreshable<T>(
    factory: RefreshableFactory<T>,
    options: RefreshableOptions<T> = {},
  ): Refreshable<T> | Promise<Refreshable<T>> {
    return this.#live.refreshable(factory, options);
  }

  async close(): Promise<void> {
    await this.#refresher.close();
  }

  /** The in-memory answer: one property source, a new version each time it is asked for. */
  #environment(): Environment {
    this.#version++;
    return {
      name: this.#name,
      profiles: this.#profiles,
      label: null,
      version: `test-${this.#version}`,
      state: null,
      propertySources: [{ name: 'test', source: { ...this.#values } }],
    };
  }

  #snapshotOf(env: Environment): ConfigSnapshot {
    const { name, profiles, label, version, state } = env;
    const layers = env.propertySources.map((source) => mapLayer(source.name, source.source));
    return new ConfigSnapshot(layers, { source: 'server', name, profiles, label, version, state });
  }
}

/** A client double holding `values` (nested objects, arrays, or Spring keys such as `db.hosts[0]`). */
export function createTestConfig(values: TestValues = {}, options: TestConfigOptions = {}): TestConfig {
  return new TestConfig(values, options);
}
