/**
 * One member of a Spring Cloud Bus over RabbitMQ, with Spring's topology: a durable topic exchange named after
 * the destination (also the routing key), and a private auto-deleted queue per node bound with `#`, so every
 * node sees every event. rabbitmq-client re-declares all of it after a reconnect.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  type AckBusEvent,
  type BusEvent,
  type RefreshBusEvent,
  BusMessageError,
  createAckEvent,
  createRefreshEvent,
  busEventFromJson,
  decodeBusEvent,
  encodeBusEvent,
  isAckEvent,
  isForSelf,
  isFromSelf,
  isRefreshEvent,
} from '@confbus/core';
import { Connection, type Consumer, type Publisher, type AsyncMessage } from 'rabbitmq-client';
import { describeError } from './redact.js';

/** Spring Cloud Bus's default destination (`spring.cloud.bus.destination`). */
export const DEFAULT_BUS_DESTINATION = 'springCloudBus';

/** The subset of pino's API the bus uses. */
export interface BusLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface BusOptions {
  /** Broker nodes as `host:port`; tried in turn. */
  addresses: string[];
  username: string;
  password: string;
  vhost: string;
  /** Exchange name and routing key; `springCloudBus` in Spring. */
  destination: string;
  /** This node's service id (`spring.cloud.bus.id`), e.g. from `defaultBusId()`. */
  busId: string;
  /** Send an ack for each refresh handled (`spring.cloud.bus.ack.enabled`). */
  ackEnabled: boolean;
  /** Destination of the acks (`spring.cloud.bus.ack.destination-service`); everyone when absent. */
  ackDestination?: string;
  /** `spring.cloud.config.name` entries that also address this node (see `isForSelf`). */
  configNames?: string[];
  logger: BusLogger;
  /**
   * Opt-in, beyond Spring: publish acks with this routing key, and bind this node's queue to the destination
   * name only (the key Spring and confbus publish events with) instead of `#`. Then nodes no longer receive
   * each other's acks; listeners bound with `#` (Spring nodes, the confbus server) still get everything.
   */
  ackRoutingKey?: string;
  /** Reconnect backoff: first step and ceiling in ms (default 1000 and 30000). */
  reconnectDelayMs?: { min: number; max: number };
}

export interface BusNodeEvents {
  refresh: [e: RefreshBusEvent];
  ack: [e: AckBusEvent];
  connected: [];
  disconnected: [];
  reconnected: [];
}

export class BusNode extends EventEmitter<BusNodeEvents> {
  private readonly options: BusOptions;
  /** Spring's anonymous queue name; kept across reconnects so the binding is re-made for the same name. */
  readonly queueName: string;
  private connection: Connection | undefined;
  private consumer: Consumer | undefined;
  private publisher: Publisher | undefined;
  private everConnected = false;
  private ready = false;
  private closed = false;

  constructor(options: BusOptions) {
    super();
    if (options.addresses.length === 0)
      throw new Error('BusNode needs at least one broker address (host:port)');
    if (options.destination.trim() === '') throw new Error('BusNode needs a non-empty destination');
    if (options.busId.trim() === '') throw new Error('BusNode needs a non-empty busId');
    this.options = options;
    this.queueName = `${options.destination}.anonymous.${base64UrlUuid()}`;
  }

  /** True while the consumer is set up on a live connection. */
  get connected(): boolean {
    return this.ready;
  }

  get busId(): string {
    return this.options.busId;
  }

  /**
   * Connects and subscribes. Resolves once subscribed, or as soon as the first attempt has failed (logged):
   * an unreachable broker is not fatal, the node keeps reconnecting in the background.
   */
  start(): Promise<void> {
    if (this.connection) throw new Error('BusNode.start() was already called');
    const o = this.options;
    const log = o.logger;
    const connection = new Connection({
      hosts: o.addresses,
      username: o.username,
      password: o.password,
      vhost: o.vhost,
      connectionName: `confbus ${o.busId}`,
      retryLow: o.reconnectDelayMs?.min ?? 1000,
      retryHigh: o.reconnectDelayMs?.max ?? 30_000,
    });
    this.connection = connection;

    const exchange = { exchange: o.destination, type: 'topic', durable: true };
    const consumer = connection.createConsumer(
      {
        queue: this.queueName,
        queueOptions: { durable: false, exclusive: true, autoDelete: true },
        exchanges: [exchange],
        queueBindings: [
          {
            exchange: o.destination,
            queue: this.queueName,
            routingKey: o.ackRoutingKey ? o.destination : '#',
          },
        ],
        qos: { prefetchCount: 50 },
        // A message that breaks the handler would break it again: never requeue.
        requeue: false,
      },
      (msg) => this.onMessage(msg),
    );
    this.consumer = consumer;
    this.publisher = connection.createPublisher({ confirm: true, maxAttempts: 3, exchanges: [exchange] });

    const firstOutcome = new Promise<void>((resolve) => {
      consumer.on('ready', () => {
        resolve();
        this.onReady();
      });
      connection.on('error', (err: unknown) => {
        resolve();
        this.onConnectionError(err);
      });
    });
    consumer.on('error', (err: unknown) => {
      log.warn({ err: this.describe(err), busId: o.busId }, 'bus consumer error');
    });
    this.publisher.on('retry', (err: unknown) => {
      log.warn({ err: this.describe(err), busId: o.busId }, 'bus publish failed, retrying');
    });
    return firstOutcome;
  }

  /** Sends a refresh from this node to `destination` (normalised; everyone when absent), with publisher confirms. */
  async publishRefresh(destination?: string): Promise<RefreshBusEvent> {
    const e = createRefreshEvent(this.options.busId, destination);
    await this.publish(e);
    return e;
  }

  /** Publishes any event; resolves when the broker has confirmed it. */
  async publish(e: BusEvent): Promise<void> {
    if (!this.publisher || this.closed) throw new Error('BusNode is not started or already closed');
    try {
      await this.publisher.send(
        {
          exchange: this.options.destination,
          routingKey:
            this.options.ackRoutingKey !== undefined && isAckEvent(e)
              ? this.options.ackRoutingKey
              : this.options.destination,
          contentType: 'application/json',
          // Spring Cloud Stream's Rabbit producer default delivery mode is PERSISTENT.
          durable: true,
        },
        Buffer.from(encodeBusEvent(e), 'utf8'),
      );
    } catch (err) {
      const { code, message } = this.describe(err);
      throw new Error(
        `publishing ${e.type} ${e.id} to the bus failed${code ? ` (${code})` : ''}: ${message}`,
      );
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ready = false;
    const connection = this.connection;
    // Consumer and publisher hold channels: close them before the connection. While the broker is down they
    // are waiting for a channel instead; closing the (still connecting) connection first releases them.
    // (Only one connection.close() call: a second one made while connecting never settles.)
    const channels = Promise.allSettled([this.consumer?.close(), this.publisher?.close()]);
    if (connection && !connection.ready) {
      await connection.close().catch(() => undefined);
      await channels;
    } else {
      await channels;
      await connection?.close().catch(() => undefined);
    }
  }

  private onReady(): void {
    if (this.closed) return;
    this.ready = true;
    const log = this.options.logger;
    if (!this.everConnected) {
      this.everConnected = true;
      log.info({ busId: this.options.busId, queue: this.queueName }, 'bus connected');
      this.emit('connected');
    } else {
      log.info({ busId: this.options.busId, queue: this.queueName }, 'bus reconnected');
      this.emit('reconnected');
    }
  }

  private onConnectionError(err: unknown): void {
    if (this.closed) return;
    const wasReady = this.ready;
    this.ready = false;
    this.options.logger.warn(
      { err: this.describe(err), busId: this.options.busId, addresses: this.options.addresses },
      wasReady ? 'bus connection lost, reconnecting' : 'bus broker unreachable, retrying in the background',
    );
    if (wasReady) this.emit('disconnected');
  }

  private onMessage(msg: AsyncMessage): void {
    if (this.closed) return;
    const log = this.options.logger;
    let e: BusEvent;
    try {
      e = decodeMessage(msg);
    } catch (err) {
      if (!(err instanceof BusMessageError)) throw err;
      log.warn(
        { err: { code: err.code, message: err.message }, routingKey: msg.routingKey },
        'dropped bus message',
      );
      return;
    }
    try {
      this.dispatch(e);
    } catch (err) {
      // A failing listener must not stop the consumer or requeue the message.
      log.error({ err: this.describe(err), eventId: e.id, type: e.type }, 'bus event listener failed');
    }
  }

  private dispatch(e: BusEvent): void {
    const o = this.options;
    if (isAckEvent(e)) {
      this.emit('ack', e);
      return;
    }
    if (!isRefreshEvent(e)) {
      o.logger.debug(
        { type: e.type, eventId: e.id },
        'ignored bus event of a type this node does not handle',
      );
      return;
    }
    if (!isForSelf(e, o.busId, o.configNames) || isFromSelf(e, o.busId)) return;
    o.logger.info(
      { eventId: e.id, origin: e.originService, destination: e.destinationService },
      'bus refresh',
    );
    if (o.ackEnabled) {
      const ack = createAckEvent(o.busId, e, o.ackDestination);
      this.publish(ack).catch((err: unknown) =>
        o.logger.warn({ err: this.describe(err), ackId: e.id }, 'could not send bus ack'),
      );
    }
    this.emit('refresh', e);
  }

  private describe(err: unknown): { code?: string; message: string } {
    return describeError(err, this.options.password);
  }
}

/**
 * rabbitmq-client has already parsed an application/json body that parses: validate that object as it is,
 * rather than re-serialising and parsing it again (three parses per message showed in the 200-node profile).
 * Other bodies (bytes, text, a JSON string literal) are decoded from their text.
 */
function decodeMessage(msg: AsyncMessage): BusEvent {
  const body: unknown = msg.body;
  if (body instanceof Uint8Array) return decodeBusEvent(body);
  if (typeof body === 'string' && !(msg.contentType === 'application/json' && !msg.contentEncoding))
    return decodeBusEvent(body);
  return busEventFromJson(body);
}

/** Spring AMQP's Base64UrlNamingStrategy: a random UUID's 16 bytes, base64url without padding. */
function base64UrlUuid(): string {
  return Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url');
}
