/**
 * The test double for applications' unit tests: the client's API over values kept in memory, with no server,
 * settings file or environment. It runs the client's own refresh (refresher.ts) against an in-memory answer,
 * so refreshable components are rebuilt, events emitted and failures reported exactly as in production.
 */
import { silentLogger, type Environment, type Logger, type PropertyValue } from '@confbus/core';
import type { ApplicationConfig } from '../application-config.js';
import { clientLogger, type ClientLogger } from '../client-logger.js';
import { LiveConfigReads } from '../live-config-reads.js';
import { Refresher } from '../refresh/refresher.js';
import { ConfigSnapshot, mapLayer } from '../snapshot/config-snapshot.js';
import { LiveConfig } from '../snapshot/live-config.js';
import { flattenValues, type TestValues } from './flatten-values.js';

export interface TestConfigOptions {
  /** The application name reported by `status` (default `application`). */
  readonly name?: string;
  /** The profiles reported by `status` (default `['default']`). */
  readonly profiles?: readonly string[];
  /** Where `client.logger` writes (default: nowhere). */
  readonly logger?: Logger;
}

export class TestConfig extends LiveConfigReads implements ApplicationConfig {
  readonly logger: ClientLogger;
  #values: ReadonlyMap<string, PropertyValue>;
  #version = 0;
  protected readonly live: LiveConfig;
  protected readonly refresher: Refresher;
  readonly #name: string;
  readonly #profiles: string[];

  constructor(values: TestValues, options: TestConfigOptions = {}) {
    super();
    this.logger = clientLogger(options.logger ?? silentLogger);
    this.#name = options.name ?? 'application';
    this.#profiles = [...(options.profiles ?? ['default'])];
    this.#values = flattenValues(values);
    const snapshots = { fromEnvironment: (env: Environment) => this.#snapshotOf(env) };
    this.live = new LiveConfig(snapshots.fromEnvironment(this.#environment()), this.logger);
    this.refresher = new Refresher({
      source: { fetch: async () => this.#environment() },
      snapshots,
      live: this.live,
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
    return this.refresher.refresh();
  }

  async close(): Promise<void> {
    await this.refresher.close();
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
      propertySources: [{ name: 'test', source: this.#values }],
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
