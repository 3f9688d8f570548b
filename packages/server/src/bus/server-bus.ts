/**
 * The server's place on the refresh bus, as a port: it publishes the refreshes /monitor announces and, once the
 * server listens, joins the bus to collect acks and other servers' refreshes. `busFromSettings` is the real one
 * (a BusNode over RabbitMQ or Kafka); tests of the wiring use a fake publisher in its place.
 */
import { type BusNode, busErrors, busNodeFromSettings } from '@confbus/bus';
import {
  type BusSettings,
  ConfbusError,
  type Logger,
  type RefreshBusEvent,
  defaultBusId,
} from '@confbus/core';

/** Publishes refresh events on the bus. */
export interface RefreshPublisher {
  /** `configVersion`: the commit announced (the version hint confbus clients pass on to their server). */
  publishRefresh(destination: string | undefined, configVersion: string): Promise<RefreshBusEvent>;
}

export interface ServerBus extends RefreshPublisher {
  /** The bus member once joined (health, metrics and the console read it); undefined before. */
  readonly node: BusNode | undefined;
  /**
   * Joins the bus as the server listening on `address` (its port goes into the bus id). `attach` subscribes to
   * the node's events before it starts, so nothing delivered at start-up is missed.
   */
  join(address: string, attach: (node: BusNode) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * The bus of spring.cloud.bus.* (bus-settings.ts read them before the server listens: a malformed broker address
 * or destination stops the start before the port opens). The node is made in `join`, once the port (part of its
 * bus id) is known.
 */
export function busFromSettings(bus: BusSettings, applicationName: string, logger: Logger): ServerBus {
  let node: BusNode | undefined;
  return {
    get node() {
      return node;
    },
    publishRefresh(destination: string | undefined, configVersion: string): Promise<RefreshBusEvent> {
      if (!node)
        return Promise.reject(new ConfbusError(busErrors.CONFBUS_BUS_CLOSED, 'The bus is not started'));
      return node.publishRefresh(destination, configVersion);
    },
    async join(address, attach) {
      const port = new URL(address).port;
      const busId = bus.id ?? defaultBusId({ applicationName, port });
      // The server publishes refreshes and collects acks; it has nothing of its own to refresh, so it sends no acks.
      node = busNodeFromSettings(bus, { role: 'server', busId, logger });
      attach(node);
      await node.start();
    },
    async close() {
      await node?.close();
    },
  };
}
