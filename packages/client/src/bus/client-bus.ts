/**
 * The client's member of Spring Cloud Bus: refreshes on RefreshRemoteApplicationEvents addressed
 * to this node (the BusNode decides what is addressed and acks once the refresh is done, carrying
 * the config version), publishes refreshes for `/actuator/busrefresh`, and after a broker outage
 * asks the config server whether a version was missed — Spring loses events sent while a node is
 * disconnected; we catch up. @confbus/bus is loaded only here, when the bus is enabled.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { AckDetails, BusNode } from '@confbus/bus';
import {
  createEnvironmentChangeEvent,
  createRefreshEvent,
  createShutdownEvent,
  type BusEvent,
  type Logger,
  type RefreshBusEvent,
} from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { ConfigClientError } from '../errors.js';
import { BusCatchUp } from './bus-catch-up.js';
import { loadBusPackage, type BusPackage } from './bus-package.js';
import { BusPresence } from './bus-presence.js';
import type { BusCommandSwitches } from './bus-settings.js';
import type { BusHealth, BusRefreshOutcome, ClientBusOptions } from './client-bus-types.js';

/** This node's part of a refresh: the keys it changed, or why there are none (not attempted, or failed). */
type LocalRefresh = { readonly keys: string[] | null; readonly skipped?: string; readonly error?: unknown };

/** The client's bus member (see the header); presence is bus-presence.ts, catching up bus-catch-up.ts. */
export class ClientBus {
  readonly #node: BusNode;
  readonly #options: ClientBusOptions;
  readonly #catchUp: BusCatchUp;
  readonly #presence: BusPresence;
  #closed = false;
  /** Bus events being handled: their acks will carry the version this node serves. */
  #remoteRefreshes = 0;

  private constructor(options: ClientBusOptions, busPackage: BusPackage) {
    this.#options = options;
    this.#catchUp = new BusCatchUp(options.target, options.logger);
    const { target, settings } = options;
    this.#node = busPackage.busNodeFromSettings(settings, {
      role: 'client',
      busId: options.busId,
      logger: options.logger,
      configNames: options.configNames,
      ackRoutingKey: settings.ackRoutingKey,
      trace: settings.trace,
      refreshHandler: { refresh: (event) => this.#onRemoteRefresh(event) },
      commandHandler: {
        environmentChange: async (values) => {
          if (this.#carriesOut('env')) await target.applyEnvironment(values);
        },
        shutdown: async () => {
          if (this.#carriesOut('shutdown')) await target.shutdown();
        },
      },
    });
    this.#presence = new BusPresence(this.#node, {
      busId: options.busId,
      identity: options.identity,
      currentVersion: () => target.currentVersion(),
      logger: options.logger,
    });
    this.#node.on('reconnected', () => this.#onReconnected());
    this.#node.on('connected', () => void this.announcePresence());
    this.#node.on('other', (event) => {
      if (!this.#closed) this.#presence.answer(event);
    });
  }

  /**
   * Loads @confbus/bus (CONFBUS_BUS_NOT_INSTALLED when it is absent) and connects; resolves once connected or
   * once the broker was found unreachable (then it keeps retrying).
   */
  static async start(options: ClientBusOptions): Promise<ClientBus> {
    const bus = new ClientBus(options, await loadBusPackage());
    await bus.#node.start();
    return bus;
  }

  get busId(): string {
    return this.#options.busId;
  }

  /**
   * The underlying bus member (its counts feed the client's metrics). Internal: left out of the published
   * types (stripInternal), which would otherwise name @confbus/bus, an optional peer a user may not install.
   * @internal
   */
  get node(): BusNode {
    return this.#node;
  }

  get connected(): boolean {
    return this.#node.connected;
  }

  health(): BusHealth {
    const connected = this.#node.connected;
    return {
      status: connected ? 'UP' : 'DOWN',
      details: { busId: this.busId, destination: this.#options.settings.destination, connected },
    };
  }

  /**
   * What `POST /actuator/busrefresh[/{destination}]` does: refresh this node when the destination
   * addresses it (Spring handles its own request locally first), then publish the event so every
   * other matching node refreshes. Rejects with CONFBUS_REFRESH_FAILED when this node failed to
   * refresh, and with CONFBUS_BUS_UNAVAILABLE when the event could not be published.
   */
  async refreshAndPublish(destination?: string): Promise<BusRefreshOutcome> {
    const event = createRefreshEvent(this.busId, destination);
    const local = this.#refreshHere(event);
    const publishError = await this.#publish(event);
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
      throw new ConfigClientError(
        'CONFBUS_BUS_UNAVAILABLE',
        `${outcome.skipped ? `Nothing was refreshed (${outcome.skipped})` : 'Only this node was refreshed'}: ${publishError.message}`,
        { cause: publishError },
      );
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
    const event = createEnvironmentChangeEvent(this.busId, values, destination);
    if (this.#node.isAddressed(event) && this.#carriesOut('env'))
      await this.#options.target.applyEnvironment(values);
    await this.#publishCommand(event);
  }

  /**
   * `POST /actuator/busshutdown`: publish Spring's ShutdownRemoteApplicationEvent; resolves with whether the
   * destination addresses this node too (the caller shuts it down once it has answered).
   */
  async shutdownAndPublish(destination?: string): Promise<{ self: boolean }> {
    const event = createShutdownEvent(this.busId, destination);
    await this.#publishCommand(event);
    return { self: this.#node.isAddressed(event) && this.#carriesOut('shutdown') };
  }

  async #publishCommand(event: BusEvent): Promise<void> {
    const error = await this.#publish(event);
    if (error === undefined) return;
    throw new ConfigClientError(
      'CONFBUS_BUS_UNAVAILABLE',
      `Nothing was sent to the other nodes: ${error.message}`,
      {
        cause: error,
      },
    );
  }

  /** Publishes `event`; resolves with why it could not be (not thrown: callers put it in their own error). */
  async #publish(event: BusEvent): Promise<Error | undefined> {
    if (!this.#node.connected)
      return new Error(`${this.#notConnected()}; the connection is retried in the background`);
    return this.#node.publish(event).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(messageOf(error))),
    );
  }

  /**
   * Tells the config server's fleet view who this node is (bus-presence.ts): on connecting, after each refresh,
   * when asked by a presence request, and (`leaving`) when closing.
   */
  announcePresence(leaving = false): Promise<void> {
    return this.#presence.announce(leaving);
  }

  /**
   * After any refresh of this node: tell the fleet view the version it now serves, unless the refresh answers
   * a bus event whose ack will say it (one message per node per refresh, not two).
   */
  refreshed(): void {
    if (this.#remoteRefreshes > 0 && this.#options.settings.ackEnabled) return;
    void this.announcePresence();
  }

  async close(): Promise<void> {
    if (!this.#closed) await this.announcePresence(true);
    this.#closed = true;
    const caughtUp = this.#catchUp.close();
    await this.#node.close();
    await caughtUp;
  }

  /** A refresh the BusNode found addressed to this node; what it returns goes into the ack. */
  async #onRemoteRefresh(event: RefreshBusEvent): Promise<AckDetails> {
    this.#remoteRefreshes++;
    try {
      if (this.#carriesOut('refresh')) {
        await spreadDelay(this.#options.settings.refreshSpreadMs, this.#options.logger);
        if (!this.#closed) await this.#refresh(event);
      }
    } finally {
      this.#remoteRefreshes--;
    }
    // configVersion is confbus's addition (Spring ignores unknown fields): the server's ack tracking
    // sees which version each node serves after the refresh.
    const version = this.#options.target.currentVersion();
    return version === null ? {} : { configVersion: version };
  }

  /**
   * Spring's RefreshListener for an event addressed to this node. Its "Keys refreshed [...]" is the refresh's
   * one INFO line, written by the refresh itself; "Received remote refresh request." is DEBUG here.
   */
  async #refresh(event: RefreshBusEvent): Promise<LocalRefresh> {
    const { logger } = this.#options;
    logger.debug({}, 'Received remote refresh request.');
    try {
      return { keys: await this.#options.target.refresh({ atLeast: event.configVersion }) };
    } catch (error) {
      // The refresh already warned with the cause; the event counts as handled (and is acked) anyway.
      logger.debug({}, `Remote refresh ${event.id} from ${event.originService} failed: ${messageOf(error)}`);
      return { keys: null, error };
    }
  }

  /** A busrefresh asked of this node: refreshed here when addressed (Spring's RefreshListener says when not). */
  async #refreshHere(event: RefreshBusEvent): Promise<LocalRefresh> {
    const { logger } = this.#options;
    if (!this.#node.isAddressed(event)) {
      logger.info({}, `Refresh not performed, the event was targeting ${event.destinationService}`);
      return { keys: null, skipped: 'the destination does not address this node' };
    }
    if (this.#carriesOut('refresh')) return this.#refresh(event);
    return { keys: null, skipped: 'spring.cloud.bus.refresh.enabled=false' };
  }

  /**
   * Whether this node carries out a command addressed to it: Spring's `spring.cloud.bus.<command>.enabled`
   * switches its listener off, and the event is then still acked (Spring's BusConsumer acks whatever listens).
   */
  #carriesOut(command: keyof BusCommandSwitches): boolean {
    if (this.#options.settings.commands[command]) return true;
    this.#options.logger.info({}, `Bus ${command} not performed: spring.cloud.bus.${command}.enabled=false`);
    return false;
  }

  #notConnected(): string {
    const { settings } = this.#options;
    const { transport } = settings;
    const brokers = transport.binder === 'kafka' ? transport.kafka.brokers : transport.rabbit.addresses;
    return `the bus is not connected to the broker (${brokers.join(', ')})`;
  }

  #onReconnected(): void {
    if (this.#closed) return;
    void this.announcePresence();
    // Catching up stands in for refresh events missed while disconnected: none when they are not carried out.
    if (this.#options.settings.commands.refresh) this.#catchUp.request();
  }
}

/** confbus.bus.refresh.spread: a random share of the window, so a large fleet does not re-fetch at one instant. */
async function spreadDelay(windowMs: number, logger: Logger): Promise<void> {
  if (windowMs <= 0) return;
  const waitMs = Math.floor(Math.random() * windowMs);
  logger.debug({ waitMs }, `Re-fetching in ${waitMs} ms (confbus.bus.refresh.spread=${windowMs})`);
  await delay(waitMs, undefined, { ref: false });
}
