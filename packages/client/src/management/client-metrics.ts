/**
 * The client's Prometheus metrics, served by the `prometheus` management endpoint (`/actuator/prometheus` when
 * exposed): Node's process metrics, the build, which configuration this instance serves (so a dashboard shows
 * which instances are on which commit), refreshes by outcome and the bus member's counts. The registry is made
 * on the first scrape, so a client that never exposes the endpoint pays nothing. Documented in docs/metrics.md.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { loadBusPackage } from '../bus-member/bus-package.js';
import { clientVersion } from '../client-version.js';
import type { ConfigClient } from '../config-client.js';

const registries = new WeakMap<ConfigClient, Registry>();

/** The text exposition of `client`'s metrics, and its content type. */
export async function clientMetricsExposition(
  client: ConfigClient,
): Promise<{ contentType: string; text: string }> {
  let registry = registries.get(client);
  if (!registry) {
    registry = await createClientRegistry(client);
    registries.set(client, registry);
  }
  return { contentType: registry.contentType, text: await registry.metrics() };
}

async function createClientRegistry(client: ConfigClient): Promise<Registry> {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'confbus_build_info',
    help: 'Always 1; the labels say which confbus client build and Node.js version run',
    labelNames: ['version', 'node_version'],
    registers,
  }).set({ version: clientVersion(), node_version: process.version }, 1);
  new Gauge({
    name: 'confbus_client_config_info',
    help: 'Always 1; the labels say which configuration this instance serves and where it came from',
    labelNames: ['application', 'profiles', 'label', 'version', 'source'],
    registers,
    collect() {
      const status = client.status;
      this.reset();
      this.set(
        {
          application: status.name,
          profiles: status.profiles.join(','),
          label: status.label ?? '',
          version: status.version ?? '',
          source: status.source,
        },
        1,
      );
    },
  });
  new Counter({
    name: 'confbus_client_refreshes_total',
    help: 'Refreshes finished, by outcome (success, failure)',
    labelNames: ['outcome'],
    registers,
    collect() {
      // The refresher keeps the monotonic counts; the scrape copies them.
      this.reset();
      for (const [outcome, count] of Object.entries(client.refreshCounts)) this.inc({ outcome }, count);
    },
  });
  await registerBusMetrics(registry, client);
  return registry;
}

/**
 * The bus member's metrics come with @confbus/bus, loaded only when the bus is enabled; with the bus off, only
 * `confbus_bus_connected 0` says so (the package, an optional peer, may not be installed).
 */
async function registerBusMetrics(registry: Registry, client: ConfigClient): Promise<void> {
  if (client.busState.state !== 'disabled') {
    (await loadBusPackage()).registerBusMetrics(registry, () => client.bus?.node);
    return;
  }
  new Gauge({
    name: 'confbus_bus_connected',
    help: '1 while the bus transport is subscribed on a live broker connection, 0 otherwise or with the bus off',
    registers: [registry],
  }).set(0);
}
