/**
 * The bus over RabbitMQ with Spring Cloud Stream's Rabbit binder topology: a durable topic exchange named after
 * the destination (also the routing key), and a private auto-deleted queue per node bound with `#`, so every
 * node sees every event. rabbitmq-client re-declares all of it after a reconnect.
 */
import { randomUUID } from 'node:crypto';
import {
  type BrokerTls,
  type BusEvent,
  type Logger,
  ConfbusError,
  PRESENCE_EVENT_TYPE,
  isAckEvent,
} from '@confbus/core';
import { Connection, type AsyncMessage, type Consumer, type Publisher } from 'rabbitmq-client';
import { busErrors } from '../errors.js';
import { describeError } from '../redact.js';
import { brokerTlsOptions } from '../tls/broker-tls.js';
import { SIGNATURE_HEADER } from '../signing/message-signing.js';
import type { BusTransport, InboundBody, InboundMessage, TransportListener } from '../transport.js';

export interface AmqpTransportOptions {
  /** Broker nodes as `host:port`; tried in turn. */
  readonly addresses: readonly string[];
  readonly username: string;
  readonly password: string;
  readonly vhost: string;
  /** Exchange name and routing key; `springCloudBus` in Spring. */
  readonly destination: string;
  /** Names the connection in the broker's management UI. */
  readonly connectionName: string;
  /**
   * Beyond Spring (confbus clients set it by default): publish replies — acks and presence announcements — with
   * this routing key, and bind this node's queue to the destination name only (the key Spring and confbus
   * publish events with) instead of `#`. Then nodes no longer receive each other's replies (N² deliveries per
   * refresh); listeners bound with `#` (Spring nodes, the confbus servers) still get everything. Absent, or equal
   * to the destination: Spring's topology.
   */
  readonly ackRoutingKey?: string;
  /** Reconnect backoff: first step and ceiling in ms (default 1000 and 30000). */
  readonly reconnectDelayMs?: { readonly min: number; readonly max: number };
  /** TLS to the broker (spring.rabbitmq.ssl.*, amqps:// addresses); absent: a plain connection. */
  readonly tls?: BrokerTls;
  readonly logger: Logger;
}

export class AmqpTransport implements BusTransport {
  readonly #options: AmqpTransportOptions;
  /** Spring's anonymous queue name; kept across reconnects so the binding is re-made for the same name. */
  readonly queueName: string;
  #connection: Connection | undefined;
  #consumer: Consumer | undefined;
  #publisher: Publisher | undefined;

  constructor(options: AmqpTransportOptions) {
    if (options.addresses.length === 0) {
      throw new ConfbusError(
        busErrors.CONFBUS_BUS_OPTIONS,
        'the AMQP bus needs at least one broker address (host:port)',
      );
    }
    if (options.destination.trim() === '') {
      throw new ConfbusError(busErrors.CONFBUS_BUS_OPTIONS, 'the AMQP bus needs a non-empty destination');
    }
    this.#options =
      options.ackRoutingKey === options.destination ? { ...options, ackRoutingKey: undefined } : options;
    this.queueName = `${options.destination}.anonymous.${base64UrlUuid()}`;
  }

  get details(): Readonly<Record<string, unknown>> {
    return {
      queue: this.queueName,
      addresses: this.#options.addresses,
      tls: this.#options.tls !== undefined,
    };
  }

  async start(listener: TransportListener): Promise<void> {
    const o = this.#options;
    // A store that cannot be opened fails the start (unlike an unreachable broker, retrying cannot help).
    const tls = o.tls === undefined ? undefined : await brokerTlsOptions(o.tls);
    const connection = new Connection({
      ...(tls === undefined ? {} : { tls }),
      hosts: [...o.addresses],
      username: o.username,
      password: o.password,
      vhost: o.vhost,
      connectionName: o.connectionName,
      retryLow: o.reconnectDelayMs?.min ?? 1000,
      retryHigh: o.reconnectDelayMs?.max ?? 30_000,
    });
    this.#connection = connection;
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
      (msg) => listener.message(inboundMessage(msg)),
    );
    this.#consumer = consumer;
    this.#publisher = connection.createPublisher({ confirm: true, maxAttempts: 3, exchanges: [exchange] });

    const firstOutcome = new Promise<void>((resolve) => {
      consumer.on('ready', () => {
        resolve();
        listener.up();
      });
      connection.on('error', (err: unknown) => {
        resolve();
        listener.down(err);
      });
    });
    consumer.on('error', (err: unknown) => {
      o.logger.warn({ err: this.describeError(err) }, 'bus consumer error');
    });
    this.#publisher.on('retry', (err: unknown) => {
      o.logger.warn({ err: this.describeError(err) }, 'bus publish failed, retrying');
    });
    await firstOutcome;
  }

  async send(event: BusEvent, body: string, signature?: string): Promise<void> {
    if (!this.#publisher) throw new ConfbusError(busErrors.CONFBUS_BUS_CLOSED, 'the AMQP bus is not started');
    const o = this.#options;
    await this.#publisher.send(
      {
        exchange: o.destination,
        routingKey: o.ackRoutingKey !== undefined && isReply(event) ? o.ackRoutingKey : o.destination,
        contentType: 'application/json',
        // Spring Cloud Stream's Rabbit producer default delivery mode is PERSISTENT.
        durable: true,
        ...(signature === undefined ? {} : { headers: { [SIGNATURE_HEADER]: signature } }),
      },
      Buffer.from(body, 'utf8'),
    );
  }

  async close(): Promise<void> {
    const connection = this.#connection;
    // Consumer and publisher hold channels: close them before the connection. While the broker is down they
    // are waiting for a channel instead; closing the (still connecting) connection first releases them.
    // (Only one connection.close() call: a second one made while connecting never settles.)
    const channels = Promise.allSettled([this.#consumer?.close(), this.#publisher?.close()]);
    if (connection && !connection.ready) {
      await connection.close().catch(() => undefined);
      await channels;
    } else {
      await channels;
      await connection?.close().catch(() => undefined);
    }
  }

  describeError(error: unknown): { code?: string; message: string } {
    return describeError(error, this.#options.password);
  }
}

function inboundMessage(msg: AsyncMessage): InboundMessage {
  const signature: unknown = msg.headers?.[SIGNATURE_HEADER];
  return {
    body: inboundBody(msg),
    origin: { routingKey: msg.routingKey },
    ...(typeof signature === 'string' ? { signature } : {}),
  };
}

/**
 * rabbitmq-client has already parsed an application/json body that parses: the node validates that object as it
 * is, rather than re-serialising and parsing it again (three parses per message showed in the 200-node profile).
 * Other bodies (bytes, text, a JSON string literal) are decoded from their text.
 */
function inboundBody(msg: AsyncMessage): InboundBody {
  const body: unknown = msg.body;
  if (body instanceof Uint8Array) return { bytes: body };
  if (typeof body === 'string' && !(msg.contentType === 'application/json' && !msg.contentEncoding)) {
    return { text: body };
  }
  return { json: body };
}

/** Events only the listeners bound with `#` (config servers, Spring nodes) need: acks and presence announcements. */
function isReply(event: BusEvent): boolean {
  return isAckEvent(event) || event.type === PRESENCE_EVENT_TYPE;
}

/** Spring AMQP's Base64UrlNamingStrategy: a random UUID's 16 bytes, base64url without padding. */
function base64UrlUuid(): string {
  return Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url');
}
