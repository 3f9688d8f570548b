/**
 * The client's place on the bus over its lifetime: disabled, waiting for the application's port (the bus id
 * holds it), or started. Refreshes reach the client through the `BusRefreshTarget` it is given; after every
 * refresh, whoever caused it, the client tells the fleet view its new version through `refreshed()`.
 */
import { defaultBusId, type Logger } from '@confbus/core';
import type { ClientSettings } from '../client-settings.js';
import { loadBusPackage } from './bus-package.js';
import { ClientBus } from './client-bus.js';
import type { BusHealth, BusRefreshTarget } from './client-bus-types.js';

/** The bus as the client sees it: off, waiting for `setLocalServerPort` (its id needs the port), or running. */
export type BusState =
  | { readonly state: 'disabled' }
  | { readonly state: 'waiting-for-port' }
  | { readonly state: 'started'; readonly bus: ClientBus };

export class BusMember {
  #state: BusState;
  #starting: Promise<void> | undefined;
  #closed = false;
  readonly #startedAt = Date.now();

  constructor(
    private readonly settings: ClientSettings,
    private readonly target: BusRefreshTarget,
    private readonly logger: Logger,
  ) {
    this.#state = settings.bus.enabled ? { state: 'waiting-for-port' } : { state: 'disabled' };
  }

  get state(): BusState {
    return this.#state;
  }

  get bus(): ClientBus | undefined {
    return this.#state.state === 'started' ? this.#state.bus : undefined;
  }

  /**
   * At start-up. The bus id holds the port (Spring: local.server.port, else server.port, else 8080). With
   * server.port=0 it is known only once the app listens: then setLocalServerPort() starts the bus.
   */
  async start(configuredPort: number | undefined): Promise<void> {
    if (this.#state.state !== 'waiting-for-port') return;
    // Even when the bus waits for the port: a missing @confbus/bus fails the start, not a later call.
    await loadBusPackage();
    if (this.settings.bus.id !== undefined || configuredPort !== 0) await this.#start(configuredPort ?? 8080);
    else
      this.logger.info(
        {},
        'Bus enabled; it connects once the application reports its port (setLocalServerPort)',
      );
  }

  /** Starts the bus if it was waiting for the port; resolves once connected or the broker was found down. */
  async setLocalServerPort(port: number): Promise<void> {
    if (this.#state.state === 'waiting-for-port' && !this.#closed) await this.#start(port);
    else await this.#starting;
  }

  /** The `bus` health component, or undefined when the bus is disabled. */
  health(): BusHealth | { status: 'UNKNOWN'; details: { reason: string } } | undefined {
    if (this.#state.state === 'disabled') return undefined;
    if (this.#state.state === 'waiting-for-port') {
      return { status: 'UNKNOWN', details: { reason: 'waiting for the application to report its port' } };
    }
    return this.#state.bus.health();
  }

  /** The fleet view shows the version each node serves: told after every refresh, bus-driven or not. */
  refreshed(): void {
    this.bus?.refreshed();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#starting?.catch(() => undefined);
    await this.bus?.close();
  }

  #start(port: number): Promise<void> {
    this.#starting ??= (async () => {
      const { bus: settings, applicationName, profiles, name, labels } = this.settings;
      const busId = settings.id ?? defaultBusId({ applicationName, profiles: [...profiles], port });
      const bus = await ClientBus.start({
        settings,
        busId,
        identity: { application: name, profiles, label: labels[0] ?? null, startedAt: this.#startedAt },
        configNames: name.split(',').map((configName) => configName.trim()),
        logger: this.logger,
        target: this.target,
      });
      this.#state = { state: 'started', bus };
      if (this.#closed) await bus.close();
    })();
    return this.#starting;
  }
}
