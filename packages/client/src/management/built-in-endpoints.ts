/**
 * What the built-in management endpoints answer: `/refresh`, `/health`, `/env` (masked as Spring's actuator masks
 * it), `/prometheus`, and the bus's (bus-endpoints.ts). Which of them answer is the exposure's choice
 * (management-endpoints.ts).
 */
import { maskPropertyValue, maskValue } from '@confbus/core';
import { busEndpoints } from './bus-endpoints.js';
import type { ConfigClient } from '../config-client.js';
import type { ManagementEndpoint } from './management-endpoints.js';

export function builtInEndpoints(): Record<string, ManagementEndpoint> {
  return {
    refresh: {
      methods: ['POST'],
      handle: async ({ client }) => ({ status: 200, body: await client.refresh() }),
    },
    health: { methods: ['GET'], handle: ({ client }) => ({ status: 200, body: healthBody(client) }) },
    env: { methods: ['GET'], handle: ({ client }) => ({ status: 200, body: envBody(client) }) },
    prometheus: {
      methods: ['GET'],
      handle: async ({ client }) => {
        // Loaded on the first scrape: prom-client (and the @opentelemetry/api it pulls in) is over 80 modules
        // that a client never scraped, or `confbus run` starting its child, would load for nothing.
        const { clientMetricsExposition } = await import('./client-metrics.js');
        const { contentType, text } = await clientMetricsExposition(client);
        return { status: 200, text: { contentType, content: text } };
      },
    },
    ...busEndpoints(),
  };
}

/**
 * `/health`: UP when the configuration came from the server. Running on a backup or on local settings only is
 * worth a look, not a restart: still 200, with UNKNOWN.
 */
function healthBody(client: ConfigClient): Record<string, unknown> {
  const status = client.status;
  const details: Record<string, unknown> = {
    source: status.source,
    name: status.name,
    profiles: status.profiles,
    label: status.label,
    version: status.version,
    state: status.state,
  };
  if (status.lastRefreshError) details.lastRefreshError = status.lastRefreshError;
  const body: Record<string, unknown> = {
    status: status.source === 'server' ? 'UP' : 'UNKNOWN',
    details,
  };
  // A broker outage does not pull the overall status down: the service still serves, the bus
  // reconnects and catches up by itself, and a DOWN would have orchestrators restart the fleet.
  const bus = client.busHealth();
  if (bus) body.components = { bus };
  return body;
}

/** `/env`: the property sources, every value masked as Spring's actuator masks it. */
function envBody(client: ConfigClient): unknown {
  return {
    activeProfiles: client.settings.profiles,
    source: client.status.source,
    propertySources: client.propertySources().map(({ name, properties, decryptedKeys }) => {
      // A value that was {cipher} text (the server's or this client's decryption) is a secret whatever its key.
      const decrypted = new Set(decryptedKeys);
      return {
        name,
        properties: Object.fromEntries(
          Object.entries(properties).map(([key, value]) => [
            key,
            { value: decrypted.has(key) ? maskValue() : maskPropertyValue(key, value) },
          ]),
        ),
      };
    }),
  };
}
