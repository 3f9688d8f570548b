/**
 * The one way from settings to a bus member, for config servers and clients alike: the transport the settings
 * choose (RabbitMQ or Kafka, as docs/bus-kafka.md describes) and a BusNode on it, shaped by the member's role.
 * Reading the settings is core's (readBusSettings).
 */
import type { BusSettings, BusTransportSettings, Logger } from '@confbus/core';
import { AmqpTransport } from './amqp/amqp-transport.js';
import { BusNode } from './bus-node.js';
import type { BusCommandHandler, BusRefreshHandler } from './bus-node-options.js';
import { KafkaTransport } from './kafka/kafka-transport.js';
import { MessageSigning } from './signing/message-signing.js';
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
    ...(broker.tls === undefined ? {} : { tls: broker.tls }),
    connectionName: `confbus ${context.busId}`,
    ...(context.ackRoutingKey === undefined ? {} : { ackRoutingKey: context.ackRoutingKey }),
  });
}

/** A config server: publishes refreshes and collects every ack (its queue is bound with `#`); it sends none. */
export interface ServerBusMember {
  readonly role: 'server';
  readonly busId: string;
  readonly logger: Logger;
}

/** A client: refreshes and runs Spring's other commands for events addressed to it, and acks them. */
export interface ClientBusMember {
  readonly role: 'client';
  readonly busId: string;
  readonly logger: Logger;
  /** `spring.cloud.config.name` entries; a destination naming one of them also addresses this node. */
  readonly configNames: readonly string[];
  /** AMQP: this node's replies go out with this key and it binds only the events' key (undefined: Spring's `#`). */
  readonly ackRoutingKey: string | undefined;
  /** `spring.cloud.bus.trace.enabled`. */
  readonly trace: boolean;
  readonly refreshHandler: BusRefreshHandler;
  readonly commandHandler: BusCommandHandler;
}

/** The bus member `settings` describe, for a server or a client (not started). */
export function busNodeFromSettings(
  settings: BusSettings,
  member: ServerBusMember | ClientBusMember,
): BusNode {
  const { busId, logger } = member;
  const client = member.role === 'client' ? member : undefined;
  const transport = createBusTransport(settings.transport, {
    busId,
    logger,
    reconnectDelayMs: settings.reconnectDelayMs,
    ...(client?.ackRoutingKey === undefined ? {} : { ackRoutingKey: client.ackRoutingKey }),
  });
  return new BusNode({
    transport,
    busId,
    logger,
    // A server has nothing of its own to refresh: nothing to ack.
    ackEnabled: client !== undefined && settings.ackEnabled,
    ...(settings.ackDestination === undefined ? {} : { ackDestination: settings.ackDestination }),
    publishTimeoutMs: settings.publishTimeoutMs,
    ...(settings.signing.mode === 'off' ? {} : { signing: new MessageSigning(settings.signing) }),
    ...(client === undefined
      ? {}
      : {
          configNames: client.configNames,
          trace: client.trace,
          refreshHandler: client.refreshHandler,
          commandHandler: client.commandHandler,
        }),
  });
}
