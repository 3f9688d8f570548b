/**
 * The client's member of Spring Cloud Bus: refreshes on RefreshRemoteApplicationEvents addressed
 * to this node (with Spring's log lines; the BusNode decides what is addressed and acks once the
 * refresh is done, carrying the config version), publishes refreshes for `/actuator/busrefresh`,
 * and after a broker outage asks the config server whether a version was missed — Spring loses
 * events sent while a node is disconnected; we catch up.
 */
import {
  createEnvironmentChangeEvent,
  createPresenceAnnouncement,
  createRefreshEvent,
  createShutdownEvent,
  isFromSelf,
  isPresenceRequest,
  type BusEvent,
  type Logger,
  type RefreshBusEvent,
} from '@confbus/core';
import { type AckDetails, BusNode, createBusTransport } from '@confbus/bus';
import { ConfigClientError } from '../errors.js';
import type { BusSettings } from './bus-settings.js';

/** What the bus needs from the config client (kept narrow so the two stay decoupled). */
export interface BusRefreshTarget {
  /** `atLeast`: the event's version hint, the commit the server should answer with at least. */
  refresh(options: { atLeast?: string | undefined }): Promise<string[]>;
  /** Fetches; refreshes only when the server's version differs. `null` = same version. */
  refreshIfVersionChanged(): Promise<{ keys: string[]; from: string | null; to: string | null } | null>;
  /** The current `config.client.version` (null before any fetch succeeded). */
  currentVersion(): string | null;
  /** `busenv`: set these properties, then refresh. */
  applyEnvironment(values: Readonly<Record<string, string>>): Promise<string[]>;
  /** `busshutdown`: shut the application down gracefully. */
  shutdown(): Promise<void>;
}

/** What this node tells the config server's fleet view about itself (confbus presence; Spring has none). */
export interface BusIdentity {
  /** `spring.cloud.config.name`: the application whose configuration it serves. */
  readonly application: string;
  readonly profiles: readonly string[];
  readonly label: string | null;
  /** Epoch milliseconds. */
  readonly startedAt: number;
}

export interface ClientBusOptions {
  readonly settings: BusSettings;
  readonly busId: string;
  readonly identity: BusIdentity;
  /** `spring.cloud.config.name` entries; a destination naming one of them also addresses this node. */
  readonly configNames: readonly string[];
  readonly target: BusRefreshTarget;
  readonly logger: Logger;
}

export interface BusHealth {
  readonly status: 'UP' | 'DOWN';
  readonly details: { readonly busId: string; readonly destination: string; readonly connected: boolean };
}

/** Outcome of `refreshAndPublish`: what happened here and on the bus. */
export interface BusRefreshOutcome {
  readonly event: RefreshBusEvent;
  /** Changed keys on this node, or `null` when the destination does not address it. */
  readonly localKeys: string[] | null;
}

export class ClientBus {
  readonly #node: BusNode;
  readonly #options: ClientBusOptions;
  /** Catch-up runs one at a time; a reconnect during one marks that another is needed. */
  #catchUp: Promise<void> | undefined;
  #catchUpAgain = false;
  #closed = false;
  /** Bus events being handled: their acks will carry the version this node serves. */
  #remoteRefreshes = 0;

  private constructor(options: ClientBusOptions) {
    this.#options = options;
    const { settings } = options;
    const { logger } = options;
    const transport = createBusTransport(
      settings.binder === 'kafka' && settings.kafka
        ? { binder: 'kafka', destination: settings.destination, kafka: settings.kafka }
        : {
            binder: 'rabbit',
            destination: settings.destination,
            rabbit: {
              addresses: [...settings.addresses],
              username: settings.username,
              password: settings.password,
              virtualHost: settings.virtualHost,
            },
          },
      {
        busId: options.busId,
        logger,
        reconnectDelayMs: { ...settings.reconnectDelayMs },
        ...(settings.ackRoutingKey === undefined ? {} : { ackRoutingKey: settings.ackRoutingKey }),
      },
    );
    this.#node = new BusNode({
      transport,
      busId: options.busId,
      ackEnabled: settings.ackEnabled,
      ...(settings.ackDestination === undefined ? {} : { ackDestination: settings.ackDestination }),
      configNames: options.configNames,
      refreshHandler: { refresh: (event) => this.#onRemoteRefresh(event) },
      commandHandler: {
        environmentChange: async (values) => {
          await options.target.applyEnvironment(values);
        },
        shutdown: () => options.target.shutdown(),
      },
      logger,
    });
    this.#node.on('reconnected', () => this.#onReconnected());
    this.#node.on('connected', () => void this.announcePresence());
    this.#node.on('other', (event) => this.#onOtherEvent(event));
  }

  /** Connects; resolves once connected or once the broker was found unreachable (then it keeps retrying). */
  static async start(options: ClientBusOptions): Promise<ClientBus> {
    const bus = new ClientBus(options);
    await bus.#node.start();
    return bus;
  }

  get busId(): string {
    return this.#options.busId;
  }

  /** The underlying bus member (its counts feed the client's metrics). */
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
    const local = this.#node.isAddressed(event) ? this.#refresh(event) : this.#notAddressed(event);
    let publishError: Error | undefined;
    if (!this.#node.connected) {
      publishError = new Error(
        `the bus is not connected to the broker (${this.#brokers()}); the connection is retried in the background`,
      );
    } else {
      publishError = await this.#node.publish(event).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
    }
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
        `${outcome.keys === null ? 'Nothing was refreshed (the destination does not address this node)' : 'Only this node was refreshed'}: ${publishError.message}`,
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
    if (this.#node.isAddressed(event)) await this.#options.target.applyEnvironment(values);
    await this.#publishCommand(event);
  }

  /**
   * `POST /actuator/busshutdown`: publish Spring's ShutdownRemoteApplicationEvent; resolves with whether the
   * destination addresses this node too (the caller shuts it down once it has answered).
   */
  async shutdownAndPublish(destination?: string): Promise<{ self: boolean }> {
    const event = createShutdownEvent(this.busId, destination);
    await this.#publishCommand(event);
    return { self: this.#node.isAddressed(event) };
  }

  async #publishCommand(event: BusEvent): Promise<void> {
    if (!this.#node.connected) {
      throw new ConfigClientError(
        'CONFBUS_BUS_UNAVAILABLE',
        `Nothing was sent to the other nodes: the bus is not connected to the broker (${this.#brokers()}); the connection is retried in the background`,
      );
    }
    try {
      await this.#node.publish(event);
    } catch (error) {
      throw new ConfigClientError(
        'CONFBUS_BUS_UNAVAILABLE',
        `Nothing was sent to the other nodes: ${messageOf(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  /**
   * Tells the config server's fleet view who this node is and which config version it serves: on connecting,
   * after each refresh, when asked by a presence request, and (`leaving`) when closing. Best effort: a node
   * whose announcement is lost shows up again at the next presence request.
   */
  async announcePresence(leaving = false): Promise<void> {
    if (!this.#node.connected) return;
    const { identity, target, logger } = this.#options;
    const event = createPresenceAnnouncement(this.busId, {
      ...identity,
      configVersion: target.currentVersion(),
      leaving,
    });
    try {
      await this.#node.publish(event);
    } catch (error) {
      logger.debug({}, `Could not announce this node on the bus: ${messageOf(error)}`);
    }
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
    await this.#node.close();
    await this.#catchUp;
  }

  /** A refresh the BusNode found addressed to this node; what it returns goes into the ack. */
  async #onRemoteRefresh(event: RefreshBusEvent): Promise<AckDetails> {
    this.#remoteRefreshes++;
    try {
      if (!this.#closed) await this.#refresh(event);
    } finally {
      this.#remoteRefreshes--;
    }
    // configVersion is confbus's addition (Spring ignores unknown fields): the server's ack tracking
    // sees which version each node serves after the refresh.
    const version = this.#options.target.currentVersion();
    return version === null ? {} : { configVersion: version };
  }

  /** Spring's RefreshListener for an event addressed to this node. */
  async #refresh(event: RefreshBusEvent): Promise<{ keys: string[] | null; error?: unknown }> {
    const { logger } = this.#options;
    logger.info({}, 'Received remote refresh request.');
    try {
      const keys = await this.#options.target.refresh({ atLeast: event.configVersion });
      logger.info({}, `Keys refreshed [${keys.join(', ')}]`);
      return { keys };
    } catch (error) {
      // The client already logged the cause; the event counts as handled (and is acked) anyway.
      logger.warn({}, `Remote refresh ${event.id} from ${event.originService} failed: ${messageOf(error)}`);
      return { keys: null, error };
    }
  }

  /** What Spring's RefreshListener says about a local request that does not address this node. */
  async #notAddressed(event: RefreshBusEvent): Promise<{ keys: null; error?: unknown }> {
    this.#options.logger.info(
      {},
      `Refresh not performed, the event was targeting ${event.destinationService}`,
    );
    return { keys: null };
  }

  #brokers(): string {
    const { settings } = this.#options;
    return (settings.binder === 'kafka' ? (settings.kafka?.brokers ?? []) : settings.addresses).join(', ');
  }

  #onOtherEvent(event: BusEvent): void {
    if (this.#closed || !isPresenceRequest(event)) return;
    if (!this.#node.isAddressed(event) || isFromSelf(event, this.busId)) return;
    void this.announcePresence();
  }

  #onReconnected(): void {
    if (this.#closed) return;
    void this.announcePresence();
    if (this.#catchUp) {
      this.#catchUpAgain = true;
      return;
    }
    this.#catchUp = this.#catchUpLoop().finally(() => {
      this.#catchUp = undefined;
    });
  }

  async #catchUpLoop(): Promise<void> {
    const { logger, target } = this.#options;
    do {
      this.#catchUpAgain = false;
      if (this.#closed) return;
      try {
        const outcome = await target.refreshIfVersionChanged();
        if (outcome === null) {
          logger.info(
            {},
            `Bus reconnected: config version ${target.currentVersion() ?? 'none'} is current, no refresh event was missed`,
          );
        } else {
          logger.info(
            {},
            `Bus reconnected: the config server moved from version ${outcome.from ?? 'none'} to ${outcome.to ?? 'none'} while the bus was down; Keys refreshed [${outcome.keys.join(', ')}]`,
          );
        }
      } catch (error) {
        logger.warn(
          {},
          `Bus reconnected, but checking for a missed configuration version failed: ${messageOf(error)}`,
        );
      }
    } while (this.#catchUpAgain);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
