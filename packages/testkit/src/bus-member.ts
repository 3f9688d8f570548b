/**
 * A bare bus member for tests that need to watch or drive the bus from inside the test process: a BusNode on
 * the test's RabbitMQ vhost or Kafka broker, with no refresh of its own (it only acks, when asked to).
 */
import {
  AmqpTransport,
  BusNode,
  DEFAULT_BUS_DESTINATION,
  KafkaTransport,
  type BusTransport,
} from '@confbus/bus';
import { type Logger, silentLogger } from '@confbus/core';
import { RABBIT_HOST, RABBIT_PASSWORD, RABBIT_PORT, RABBIT_USER } from './rabbit-vhost.js';

export interface BusMemberOptions {
  readonly busId: string;
  readonly ackEnabled?: boolean;
  readonly logger?: Logger;
  readonly reconnectDelayMs?: { min: number; max: number };
  /** See BusNodeOptions.droppedMessageLog. */
  readonly droppedMessageLog?: { lines: number; windowMs: number };
}

/** A member on the local RabbitMQ, in `vhost`, as guest. */
export function amqpBusMember(vhost: string, options: BusMemberOptions): BusNode {
  const logger = options.logger ?? silentLogger;
  return member(
    new AmqpTransport({
      addresses: [`${RABBIT_HOST}:${RABBIT_PORT}`],
      username: RABBIT_USER,
      password: RABBIT_PASSWORD,
      vhost,
      destination: DEFAULT_BUS_DESTINATION,
      connectionName: options.busId,
      logger,
      ...(options.reconnectDelayMs ? { reconnectDelayMs: options.reconnectDelayMs } : {}),
    }),
    options,
  );
}

/** A member on a test Kafka broker (`host:port`, see kafka-broker.ts). */
export function kafkaBusMember(bootstrap: string, options: BusMemberOptions): BusNode {
  return member(
    new KafkaTransport({
      brokers: [bootstrap],
      destination: DEFAULT_BUS_DESTINATION,
      clientId: options.busId,
      logger: options.logger ?? silentLogger,
      reconnectDelayMs: options.reconnectDelayMs ?? { min: 100, max: 1000 },
    }),
    options,
  );
}

function member(transport: BusTransport, options: BusMemberOptions): BusNode {
  return new BusNode({
    transport,
    busId: options.busId,
    ackEnabled: options.ackEnabled ?? false,
    logger: options.logger ?? silentLogger,
    ...(options.droppedMessageLog ? { droppedMessageLog: options.droppedMessageLog } : {}),
  });
}
