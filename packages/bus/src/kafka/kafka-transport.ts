/**
 * The bus over Kafka as Spring Cloud Stream's Kafka binder runs it (docs/bus-kafka.md has the sources): one topic
 * named after the destination, created with one partition when missing; records without a key whose value is the
 * event's JSON, with the headers `contentType` and `spring_json_header_types`; and one consumer group of its own
 * per node (`anonymous.<uuid>`), starting at the end of the topic, so every node sees every event sent while it
 * is subscribed.
 *
 * Beyond Spring: the node keeps its position in memory and resumes from it after a lost connection or a broker
 * restart, so events sent meanwhile are still delivered once (Kafka keeps them; AMQP's queue does not).
 */
import { randomUUID } from 'node:crypto';
import type { ConnectionOptions } from 'node:tls';
import { type BusEvent, type KafkaSasl, type KafkaSecurity, type Logger, ConfbusError } from '@confbus/core';
import type * as KafkaClient from '@platformatic/kafka';
import type { Consumer, MessagesStream, Producer } from '@platformatic/kafka';
import { busErrors } from '../errors.js';
import { brokerTlsOptions } from '../tls/broker-tls.js';
import type { BusTransport, TransportListener } from '../transport.js';
import { describeKafkaError } from './kafka-errors.js';
import { PartitionPositions } from './partition-positions.js';
import { inboundFromRecord, springKafkaHeaders } from './spring-kafka-record.js';

export interface KafkaTransportOptions {
  /** Bootstrap brokers as `host:port`. */
  readonly brokers: readonly string[];
  /** Topic name; `springCloudBus` in Spring. */
  readonly destination: string;
  /** Kafka client id (shown in broker logs and metrics). */
  readonly clientId: string;
  /** Create the topic when missing (`spring.cloud.stream.kafka.binder.auto-create-topics`, default true). */
  readonly autoCreateTopics?: boolean;
  /** Replication factor of a created topic; -1 = the broker's default (Spring's default). */
  readonly replicationFactor?: number;
  /** Reconnect backoff: first step and ceiling in ms (default 1000 and 30000). */
  readonly reconnectDelayMs?: { readonly min: number; readonly max: number };
  /** TLS and SASL (spring.kafka.security.protocol, spring.kafka.ssl.*, sasl.*); absent: PLAINTEXT. */
  readonly security?: KafkaSecurity;
  readonly logger: Logger;
}

/** Binary values and headers both ways: the node decodes the bytes itself. */
type BusConsumer = Consumer<Buffer, Buffer, Buffer, Buffer>;
type BusStream = MessagesStream<Buffer, Buffer, Buffer, Buffer>;

/**
 * The Kafka client, loaded when a Kafka transport starts: loading it compiles its option schemas (Ajv), about
 * half a second of CPU, which every process importing @confbus/bus paid at start-up whatever its binder.
 */
let kafkaClient: Promise<typeof KafkaClient> | undefined;
function loadKafkaClient(): Promise<typeof KafkaClient> {
  kafkaClient ??= import('@platformatic/kafka');
  return kafkaClient;
}

export class KafkaTransport implements BusTransport {
  readonly #options: KafkaTransportOptions;
  /**
   * Spring's anonymous group name: this node alone is in it, so it gets every partition. A new one per
   * subscription: positions are kept here, not in the group, and rejoining the old group after a lost
   * connection would wait for the broker to expire the stale member (the session timeout).
   */
  #groupId = anonymousGroupId();
  /** The client library, set by start(). */
  #kafka: typeof KafkaClient | undefined;
  readonly #positions = new PartitionPositions();
  #producer: Producer<Buffer, Buffer, Buffer, Buffer> | undefined;
  /** TLS and SASL options of every client, loaded by start(). */
  #security: { tls?: ConnectionOptions; sasl?: KafkaSasl } = {};
  #consumer: BusConsumer | undefined;
  #stream: BusStream | undefined;
  #listener: TransportListener | undefined;
  #reconnect: Promise<void> | undefined;
  #closed = false;
  #wakeUp: (() => void) | undefined;

  constructor(options: KafkaTransportOptions) {
    if (options.brokers.length === 0) {
      throw new ConfbusError(
        busErrors.CONFBUS_BUS_OPTIONS,
        'the Kafka bus needs at least one broker (host:port)',
      );
    }
    if (options.destination.trim() === '') {
      throw new ConfbusError(busErrors.CONFBUS_BUS_OPTIONS, 'the Kafka bus needs a non-empty destination');
    }
    this.#options = options;
  }

  get details(): Readonly<Record<string, unknown>> {
    return { topic: this.#options.destination, group: this.#groupId, brokers: this.#options.brokers };
  }

  async start(listener: TransportListener): Promise<void> {
    this.#listener = listener;
    const kafka = await loadKafkaClient();
    this.#kafka = kafka;
    // A store that cannot be opened fails the start (retrying cannot help); an unreachable broker does not.
    const { tls, sasl } = this.#options.security ?? {};
    this.#security = { ...(tls ? { tls: await brokerTlsOptions(tls) } : {}), ...(sasl ? { sasl } : {}) };
    // acks=all as Spring's binder (required-acks: all); the client reconnects the producer by itself.
    this.#producer = new kafka.Producer({ ...this.#clientOptions('producer'), acks: -1 });
    try {
      await this.#subscribe();
    } catch (error) {
      listener.down(error);
      this.#reconnect = this.#reconnectLoop();
    }
  }

  async send(_event: BusEvent, body: string, signature?: string): Promise<void> {
    if (this.#closed || !this.#producer)
      throw new ConfbusError(busErrors.CONFBUS_BUS_CLOSED, 'the Kafka bus is closed or not started');
    await this.#producer.send({
      messages: [
        {
          topic: this.#options.destination,
          value: Buffer.from(body, 'utf8'),
          headers: springKafkaHeaders(signature),
        },
      ],
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wakeUp?.();
    await this.#reconnect;
    await this.#unsubscribe();
    await this.#producer?.close().catch(() => undefined);
  }

  describeError(error: unknown): { code?: string; message: string } {
    return describeKafkaError(error, this.#options.security?.sasl?.password ?? '');
  }

  /** Creates the topic if needed, joins this node's group and starts reading at the remembered positions. */
  async #subscribe(): Promise<void> {
    const o = this.#options;
    if (o.autoCreateTopics ?? true) await this.#ensureTopic();
    const consumer: BusConsumer = new this.#client.Consumer({
      ...this.#clientOptions('consumer'),
      groupId: this.#groupId,
      // One member per group: a short session only matters when this node dies, and then nobody waits for it.
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
    });
    this.#consumer = consumer;
    const offsets = await this.#positions.resumeOffsets(consumer, o.destination);
    const stream: BusStream = await consumer.consume({
      topics: [o.destination],
      mode: 'manual',
      offsets,
      // A partition added later starts at its end, as a new anonymous consumer does in Spring.
      fallbackMode: 'latest',
      autocommit: false,
      maxWaitTime: 1000,
    });
    this.#stream = stream;
    stream.on('data', (record) => {
      this.#positions.consumed(record.partition, record.offset);
      this.#listener?.message(inboundFromRecord(record));
    });
    stream.once('error', (error: unknown) => this.#onStreamError(error));
    this.#listener?.up();
  }

  #onStreamError(error: unknown): void {
    if (this.#closed || this.#reconnect) return;
    this.#listener?.down(error);
    this.#reconnect = this.#reconnectLoop();
  }

  /** Retries `#subscribe` with exponential backoff until it works or the transport is closed. */
  async #reconnectLoop(): Promise<void> {
    const { min, max } = this.#options.reconnectDelayMs ?? { min: 1000, max: 30_000 };
    let delay = min;
    while (!this.#closed) {
      await this.#unsubscribe();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (this.#closed) break;
      try {
        this.#groupId = anonymousGroupId();
        await this.#subscribe();
        break;
      } catch (error) {
        this.#listener?.down(error);
        delay = Math.min(max, delay * 2);
      }
    }
    this.#reconnect = undefined;
  }

  async #unsubscribe(): Promise<void> {
    const stream = this.#stream;
    const consumer = this.#consumer;
    this.#stream = undefined;
    this.#consumer = undefined;
    stream?.removeAllListeners('data');
    stream?.on('error', () => undefined);
    await stream?.close().catch(() => undefined);
    // force: leave the group without waiting for in-flight fetches (the broker may be gone).
    if (consumer) await new Promise<void>((resolve) => consumer.close(true, () => resolve()));
  }

  /** Spring's KafkaTopicProvisioner: create the destination with one partition unless it exists. */
  async #ensureTopic(): Promise<void> {
    const admin = new this.#client.Admin(this.#clientOptions('admin'));
    try {
      const existing = await admin.listTopics();
      if (!existing.includes(this.#options.destination)) {
        await admin
          .createTopics({
            topics: [this.#options.destination],
            partitions: 1,
            replicas: this.#options.replicationFactor ?? -1,
          })
          .catch((error: unknown) => {
            // Another node created it in the meantime: fine.
            if (!/already exists/i.test(this.describeError(error).message)) throw error;
          });
      }
    } finally {
      await admin.close().catch(() => undefined);
    }
  }

  /** The client library: loaded by start(), before any client is made. */
  get #client(): typeof KafkaClient {
    if (this.#kafka === undefined) throw new Error('the Kafka transport is not started');
    return this.#kafka;
  }

  #clientOptions(role: string): {
    clientId: string;
    bootstrapBrokers: string[];
    retries: number;
    retryDelay: number;
    tls?: ConnectionOptions;
    sasl?: KafkaSasl;
  } {
    return {
      clientId: `${this.#options.clientId}-${role}`,
      bootstrapBrokers: [...this.#options.brokers],
      retries: 3,
      retryDelay: 250,
      ...this.#security,
    };
  }
}

function anonymousGroupId(): string {
  return `anonymous.${randomUUID()}`;
}
