/**
 * What the built-in management endpoints answer: `/refresh`, `/health` (client-health.ts), `/env` (masked as Spring's actuator masks
 * it), `/prometheus`, and the bus's (bus-endpoints.ts). Which of them answer is the exposure's choice
 * (management-endpoints.ts).
 */
import { maskPropertyValue, maskValue, springErrorBody, type PropertyValue } from '@confbus/core';
import { busEndpoints } from './bus-endpoints.js';
import { healthEndpoint } from './client-health.js';
import type { ConfigClient } from '../config-client.js';
import type { ManagementEndpoint } from './management-endpoints.js';

export function builtInEndpoints(): Record<string, ManagementEndpoint> {
  return {
    refresh: {
      methods: ['POST'],
      handle: async ({ client }) => ({ status: 200, body: await client.refresh() }),
    },
    health: { methods: ['GET'], acceptsSubPath: true, handle: healthEndpoint },
    env: { methods: ['GET'], handle: ({ client }) => ({ status: 200, body: envBody(client) }) },
    prometheus: {
      methods: ['GET'],
      handle: async ({ client }) => {
        // Loaded on the first scrape: prom-client (and the @opentelemetry/api it pulls in) is over 80 modules
        // that a client never scraped, or `confbus run` starting its child, would load for nothing. It is an
        // optional peer (4 packages, 4.6 MB): a service that is never scraped does not install it.
        const metrics = await import('./client-metrics.js').catch((error: unknown) => {
          if (!isMissingPromClient(error)) throw error;
          return undefined;
        });
        if (metrics === undefined) {
          return {
            status: 501,
            body: springErrorBody(
              501,
              undefined,
              'The prometheus endpoint needs the optional peer prom-client: npm install prom-client',
              '/actuator/prometheus',
            ),
          };
        }
        const { clientMetricsExposition } = metrics;
        const { contentType, text } = await clientMetricsExposition(client);
        return { status: 200, text: { contentType, content: text } };
      },
    },
    ...busEndpoints(),
  };
}

/** `/env`: the property sources, every value masked as Spring's actuator masks it. */
function envBody(client: ConfigClient): unknown {
  return {
    activeProfiles: client.settings.profiles,
    source: client.status.source,
    propertySources: client.propertySources().map(({ name, properties, decryptedKeys }) => {
      // A value that was {cipher} text (the server's or this client's decryption) is a secret whatever its key.
      const decrypted = new Set(decryptedKeys);
      // A Map, which writeJson writes as an object in the properties' order (as Spring's actuator does).
      const shown = new Map<string, { value: PropertyValue }>();
      for (const [key, value] of properties)
        shown.set(key, { value: decrypted.has(key) ? maskValue() : maskPropertyValue(key, value) });
      return { name, properties: shown };
    }),
  };
}

/** The import failed because prom-client is not installed (not because it is broken). */
function isMissingPromClient(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes("'prom-client'");
}
