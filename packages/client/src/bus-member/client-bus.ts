/**
 * The client's member of Spring Cloud Bus over its lifetime: disabled, waiting for the application's port (the
 * bus id holds it), or started on a BusNode from @confbus/bus (loaded only then, bus-package.ts). Started, it
 * runs the commands addressed to this node (bus-commands.ts; the node decides what is addressed and acks),
 * publishes them for the bus endpoints, tells the fleet view who it is and which version it serves
 * (bus-presence.ts), and after a broker outage asks the config server whether a version was missed
 * (bus-catch-up.ts): Spring loses events sent while a node is disconnected; we catch up.
 */
import type { BusNode } from '@confbus/bus';
import {
  createEnvironmentChangeEvent,
  createRefreshEvent,
  createShutdownEvent,
  defaultBusId,
  type BusEvent,
} from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { ConfigClientError } from '../errors.js';
import { BusCatchUp } from './bus-catch-up.js';
import { BusCommands } from './bus-commands.js';
import { loadBusPackage } from './bus-package.js';
import { BusPresence } from './bus-presence.js';
import type { BusHealth, BusRefreshOutcome, BusWaitingHealth, ClientBusOptions } from './client-bus-types.js';

/** The bus as the client sees it: off, waiting for `setLocalServerPort` (its id needs the port), or running. */
export type BusState =
  | { readonly state: 'disabled' }
  | { readonly state: 'waiting-for-port' }
  | { readonly state: 'started'; readonly bus: ClientBus };

export class ClientBus {
  #state: BusState;
  #node: BusNode | undefined;
  #presence: BusPresence | undefined;
  readonly #commands: BusCommands;
  readonly #catchUp: BusCatchUp;
  #starting: Promise<void> | undefined;
  #closed = false;
  readonly #startedAt = Date.now();

  constructor(private readonly options: ClientBusOptions) {
    const { settings, target, logger } = options;
    this.#state = settings.bus.enabled ? { state: 'waiting-for-port' } : { state: 'disabled' };
    this.#commands = new BusCommands(settings.bus, target, logger, () => this.#closed);
    this.#catchUp = new BusCatchUp(target, logger);
  }

  get state(): BusState {
    return this.#state;
  }

  /** This node's bus id, once started. */
  get busId(): string | undefined {
    return this.#node?.busId;
  }

  /**
   * The underlying bus member (its counts feed the client's metrics). Internal: left out of the published
   * types (stripInternal), which would otherwise name @confbus/bus, an optional peer a user may not install.
   * @internal
   */
  get node(): BusNode | undefined {
    return this.#node;
  }

  get connected(): boolean {
    return this.#node?.connected ?? false;
  }

  /**
   * At start-up. The bus id holds the port (Spring: local.server.port, else server.port, else 8080). With
   * server.port=0 it is known only once the app listens: then setLocalServerPort() starts the bus.
   */
  async start(configuredPort: number | undefined): Promise<void> {
    if (this.#state.state !== 'waiting-for-port') return;
    // Even when the bus waits for the port: a missing @confbus/bus fails the start, not a later call.
    await loadBusPackage();
    if (this.options.settings.bus.id !== undefined || configuredPort !== 0) {
      await this.#start(configuredPort ?? 8080);
    } else {
      this.options.logger.info(
        {},
        'Bus enabled; it connects once the application reports its port (setLocalServerPort)',
      );
    }
  }

  /** Starts the bus if it was waiting for the port; resolves once connected or the broker was found down. */
  async setLocalServerPort(port: number): Promise<void> {
    if (this.#state.state === 'waiting-for-port' && !this.#closed) await this.#start(port);
    else await this.#starting;
  }

  /** The `bus` health component, or undefined when the bus is disabled. */
  health(): BusHealth | BusWaitingHealth | undefined {
    if (this.#state.state === 'disabled') return undefined;
    const node = this.#state.state === 'started' ? this.#node : undefined;
    if (!node) {
      return { status: 'UNKNOWN', details: { reason: 'waiting for the application to report its port' } };
    }
    const connected = node.connected;
    // Why it is down (a refused password, an untrusted certificate…), as the server's bus component says.
    const details = {
      busId: node.busId,
      destination: this.options.settings.bus.destination,
      connected,
      ...node.lastErrorDetails,
    };
    return { status: connected ? 'UP' : 'DOWN', details };
  }

  /**
   * What `POST /actuator/busrefresh[/{destination}]` does: refresh this node when the destination
   * addresses it (Spring handles its own request locally first), then publish the event so every
   * other matching node refreshes. Rejects with CONFBUS_REFRESH_FAILED when this node failed to
   * refresh, and with CONFBUS_BUS_UNAVAILABLE when the event could not be published.
   */
  async refreshAndPublish(destination?: string): Promise<BusRefreshOutcome> {
    const node = this.#running('nothing was refreshed', ' Use /actuator/refresh for this node only.');
    const event = createRefreshEvent(node.busId, destination);
    const local = this.#commands.refreshHere(event, node.isAddressed(event));
    const publishError = await this.#publish(node, event);
    const outcome = await local;
    if (outcome.error !== undefined) {
      const others = publishError
        ? `nothing was sent to the other nodes (${publishError.message})`
        : 'the other nodes were sent the event';
      throw new ConfigClientError(
        'CONFBUS_REFRESH_FAILED',
        `Refreshing this node failed (${messageOf(outcome.error)}); ${others}`,
        { cause: outcome.error },
      );
    }
    if (publishError) {
      const here = outcome.skipped
        ? `Nothing was refreshed (${outcome.skipped})`
        : 'Only this node was refreshed';
      throw new ConfigClientError('CONFBUS_BUS_UNAVAILABLE', `${here}: ${publishError.message}`, {
        cause: publishError,
      });
    }
    return { event, localKeys: outcome.keys };
  }

  /**
   * `POST /actuator/busenv`: set the property here when the destination addresses this node (then refresh),
   * and publish Spring's EnvironmentChangeRemoteApplicationEvent so every other matching node does the same.
   */
  async changeEnvironmentAndPublish(
    values: Readonly<Record<string, string>>,
    destination?: string,
  ): Promise<void> {
    const node = this.#running('nothing was sent');
    const event = createEnvironmentChangeEvent(node.busId, values, destination);
    if (node.isAddressed(event)) await this.#commands.applyEnvironment(values);
    await this.#publishCommand(node, event);
  }

  /**
   * `POST /actuator/busshutdown`: publish Spring's ShutdownRemoteApplicationEvent; resolves with whether this
   * node is to shut down too (the caller does it once it has answered).
   */
  async shutdownAndPublish(destination?: string): Promise<{ self: boolean }> {
    const node = this.#running('nothing was sent');
    const event = createShutdownEvent(node.busId, destination);
    await this.#publishCommand(node, event);
    return { self: node.isAddressed(event) && this.#commands.carriesOut('shutdown') };
  }

  /**
   * Tells the config server's fleet view who this node is (bus-presence.ts): on connecting, after each refresh,
   * when asked by a presence request, and (`leaving`) when closing.
   */
  async announcePresence(leaving = false): Promise<void> {
    await this.#presence?.announce(leaving);
  }

  /**
   * After any refresh of this node: tell the fleet view the version it now serves, unless the refresh answers
   * a bus event whose ack will say it (one message per node per refresh, not two).
   */
  refreshed(): void {
    if (this.#commands.answeringEvent && this.options.settings.bus.ackEnabled) return;
    void this.announcePresence();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A start under way finishes first, so the node it makes is closed too (after saying it leaves).
    await this.#starting?.catch(() => undefined);
    await this.announcePresence(true);
    const caughtUp = this.#catchUp.close();
    await this.#node?.close();
    await caughtUp;
  }

  /** Builds the node on the bus id holding `port` and connects; resolves once connected or found unreachable. */
  #start(port: number): Promise<void> {
    this.#starting ??= (async () => {
      const { settings, target, logger } = this.options;
      const { bus, applicationName, profiles, name, labels } = settings;
      const busId = bus.id ?? defaultBusId({ applicationName, profiles: [...profiles], port });
      const node = (await loadBusPackage()).busNodeFromSettings(bus, {
        role: 'client',
        busId,
        logger,
        configNames: name.split(',').map((configName) => configName.trim()),
        ackRoutingKey: bus.ackRoutingKey,
        trace: bus.trace,
        ...this.#commands.handlers(),
      });
      const identity = { application: name, profiles, label: labels[0] ?? null, startedAt: this.#startedAt };
      const presence = new BusPresence(node, {
        busId,
        identity,
        currentVersion: () => target.currentVersion(),
        contract: () => target.contract?.(),
        logger,
      });
      node.on('reconnected', () => this.#onReconnected());
      node.on('connected', () => void this.announcePresence());
      node.on('other', (event) => {
        if (!this.#closed) presence.answer(event);
      });
      this.#node = node;
      this.#presence = presence;
      await node.start();
      this.#state = { state: 'started', bus: this };
    })();
    return this.#starting;
  }

  /**
   * The one "no bus" guard: the running node, or CONFBUS_BUS_UNAVAILABLE (503) saying why there is none and
   * that `nothing` happened (`hint`: what to do instead when the bus is off).
   */
  #running(nothing: string, hint = ''): BusNode {
    if (this.#state.state === 'started' && this.#node) return this.#node;
    const message =
      this.#state.state === 'disabled'
        ? `The bus is disabled (spring.cloud.bus.enabled=false): ${nothing}.${hint}`
        : `The bus has not started yet (it waits for the application to report its port): ${nothing}.`;
    throw new ConfigClientError('CONFBUS_BUS_UNAVAILABLE', message);
  }

  async #publishCommand(node: BusNode, event: BusEvent): Promise<void> {
    const error = await this.#publish(node, event);
    if (error === undefined) return;
    throw new ConfigClientError(
      'CONFBUS_BUS_UNAVAILABLE',
      `Nothing was sent to the other nodes: ${error.message}`,
      { cause: error },
    );
  }

  /** Publishes `event`; resolves with why it could not be (not thrown: callers put it in their own error). */
  async #publish(node: BusNode, event: BusEvent): Promise<Error | undefined> {
    if (!node.connected) {
      const { transport } = this.options.settings.bus;
      const brokers = transport.binder === 'kafka' ? transport.kafka.brokers : transport.rabbit.addresses;
      return new Error(
        `the bus is not connected to the broker (${brokers.join(', ')}); the connection is retried in the background`,
      );
    }
    return node.publish(event).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(messageOf(error))),
    );
  }

  #onReconnected(): void {
    if (this.#closed) return;
    void this.announcePresence();
    // Catching up stands in for refresh events missed while disconnected: none when they are not carried out.
    if (this.options.settings.bus.commands.refresh) this.#catchUp.request();
  }
}
