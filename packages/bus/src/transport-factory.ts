/**
 * Builds the bus transport the settings choose (RabbitMQ or Kafka, as docs/bus-kafka.md describes) and the
 * options of a BusNode on it. Reading the settings is core's (busTransportSettings, readBusMemberSettings).
 */
import { type Logger, type Settings } from '@confbus/core';
import {
  type BusTransportSettings,
  busTransportSettings,
  readBusMemberSettings,
} from '@confbus/core/internal';
import { AmqpTransport } from './amqp/amqp-transport.js';
import type { BusNodeOptions } from './bus-node-options.js';
import { KafkaTransport } from './kafka/kafka-transport.js';
import type { BusTransport } from './transport.js';

export interface TransportContext {
  readonly busId: string;
  readonly logger: Logger;
  /** Reconnect backoff in ms (confbus.bus.reconnect.*). */
  readonly reconnectDelayMs?: { readonly min: number; readonly max: number };
  /** AMQP only: see AmqpTransportOptions.ackRoutingKey. */
  readonly ackRoutingKey?: string;
}

export function createBusTransport(settings: BusTransportSettings, context: TransportContext): BusTransport {
  const common = {
    destination: settings.destination,
    logger: context.logger,
    ...(context.reconnectDelayMs ? { reconnectDelayMs: context.reconnectDelayMs } : {}),
  };
  if (settings.binder === 'kafka') {
    return new KafkaTransport({ ...common, ...settings.kafka, clientId: `confbus-${context.busId}` });
  }
  const broker = settings.rabbit;
  return new AmqpTransport({
    ...common,
    addresses: broker.addresses,
    username: broker.username,
    password: broker.password,
    vhost: broker.virtualHost,
    connectionName: `confbus ${context.busId}`,
    ...(context.ackRoutingKey === undefined ? {} : { ackRoutingKey: context.ackRoutingKey }),
  });
}

/** Everything a BusNode needs from the settings, on the transport they choose. */
export function busNodeOptionsFromSettings(
  settings: Settings,
  context: TransportContext & { configNames?: readonly string[] },
): BusNodeOptions {
  const { ackEnabled, ackDestination } = readBusMemberSettings(settings);
  return {
    transport: createBusTransport(busTransportSettings(settings), context),
    busId: context.busId,
    ackEnabled,
    ...(ackDestination === undefined ? {} : { ackDestination }),
    ...(context.configNames ? { configNames: context.configNames } : {}),
    logger: context.logger,
    ...publishTimeout(settings),
  };
}

/** Settings resolved without the bus specs (a test's subset) leave the node's default. */
function publishTimeout(settings: Settings): { publishTimeoutMs?: number } {
  const value = settings.get('confbus.bus.publish-timeout');
  return typeof value === 'number' ? { publishTimeoutMs: value } : {};
}
