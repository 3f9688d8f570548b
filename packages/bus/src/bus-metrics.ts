/**
 * Prometheus metrics of a bus member, shared by the config server and the client: the node keeps plain counts
 * (BusNode.stats) and these collectors copy them into the registry at scrape time, so publishing and receiving
 * pay no metrics cost. Documented in docs/metrics.md.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { BusNode } from './bus-node.js';
import type { BusNodeStats } from './bus-node-options.js';

/** `node` is read at each scrape: the bus may start after the metrics are registered, or not at all. */
export function registerBusMetrics(registry: Registry, node: () => BusNode | undefined): void {
  const registers = [registry];
  const stats = (): BusNodeStats | undefined => node()?.stats;
  new Gauge({
    name: 'confbus_bus_connected',
    help: '1 while the bus transport is subscribed on a live broker connection, 0 otherwise or with the bus off',
    registers,
    collect() {
      this.set(node()?.connected ? 1 : 0);
    },
  });
  followCounterByLabel(
    registry,
    'confbus_bus_events_published_total',
    'Bus events published, by event type',
    'type',
    () => stats()?.published,
  );
  followCounterByLabel(
    registry,
    'confbus_bus_events_received_total',
    'Well-formed bus events received, by event type (addressed to this node or not)',
    'type',
    () => stats()?.received,
  );
  followCounter(
    registry,
    'confbus_bus_publish_failures_total',
    'Bus publishes the broker did not take',
    () => stats()?.publishFailures,
  );
  followCounter(
    registry,
    'confbus_bus_messages_dropped_total',
    'Bus messages dropped because they were not a valid bus event',
    () => stats()?.dropped,
  );
  followCounterByLabel(
    registry,
    'confbus_bus_messages_rejected_total',
    'Bus messages not obeyed because of their signature (confbus.bus.signing.*), by reason: unsigned, bad-signature, stale, replayed',
    'reason',
    () => stats()?.rejected,
  );
  followCounter(
    registry,
    'confbus_bus_refreshes_handled_total',
    'Refresh events addressed to this node and handled',
    () => stats()?.refreshesHandled,
  );
  followCounter(
    registry,
    'confbus_bus_reconnects_total',
    'Times the bus connection came back after a loss',
    () => stats()?.reconnects,
  );
}

/** A counter that follows a monotonic count kept elsewhere, brought up to date at scrape time. */
export function followCounter(
  registry: Registry,
  name: string,
  help: string,
  read: () => number | undefined,
): void {
  let seen = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = read() ?? seen;
      if (now > seen) this.inc(now - seen);
      seen = Math.max(seen, now);
    },
  });
}

/** `followCounter` for counts kept per value of one label (`{ success: 3, failure: 1 }` by `outcome`). */
export function followCounterByLabel(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  read: () => Readonly<Record<string, number>> | undefined,
): void {
  const seen = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      for (const [value, now] of Object.entries(read() ?? {})) {
        const before = seen.get(value) ?? 0;
        if (now > before) this.inc({ [label]: value }, now - before);
        seen.set(value, Math.max(before, now));
      }
    },
  });
}
