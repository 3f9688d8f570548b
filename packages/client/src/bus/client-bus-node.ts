/**
 * The BusNode under the client's bus member, built from the client's bus settings on the transport they choose
 * (RabbitMQ or Kafka). The node decides what is addressed to this node and acks once the handler has settled.
 */
import type { AckDetails, BusNode } from '@confbus/bus';
import type { Logger, RefreshBusEvent } from '@confbus/core';
import type { BusPackage } from './bus-package.js';
import type { BusSettings } from './bus-settings.js';

/** What the node runs for events addressed to this node. */
export interface ClientBusHandlers {
  refresh(event: RefreshBusEvent): Promise<AckDetails>;
  environmentChange(values: Readonly<Record<string, string>>): Promise<void>;
  shutdown(): Promise<void>;
}

export interface ClientBusNodeOptions {
  readonly settings: BusSettings;
  readonly busId: string;
  readonly configNames: readonly string[];
  readonly logger: Logger;
}

/** `bus`: the loaded @confbus/bus package (an optional peer, see bus-package.ts). */
export function createClientBusNode(
  bus: BusPackage,
  options: ClientBusNodeOptions,
  handlers: ClientBusHandlers,
): BusNode {
  const { settings, busId, logger } = options;
  const transport = bus.createBusTransport(
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
      busId,
      logger,
      reconnectDelayMs: { ...settings.reconnectDelayMs },
      ...(settings.ackRoutingKey === undefined ? {} : { ackRoutingKey: settings.ackRoutingKey }),
    },
  );
  return new bus.BusNode({
    transport,
    busId,
    ackEnabled: settings.ackEnabled,
    ...(settings.ackDestination === undefined ? {} : { ackDestination: settings.ackDestination }),
    configNames: options.configNames,
    trace: settings.trace,
    refreshHandler: { refresh: (event) => handlers.refresh(event) },
    commandHandler: {
      environmentChange: (values) => handlers.environmentChange(values),
      shutdown: () => handlers.shutdown(),
    },
    logger,
  });
}
