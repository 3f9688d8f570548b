/**
 * The bus endpoints, each with its Spring Cloud Bus 2.x name too: `busrefresh` (refresh this node when addressed
 * and every other matching node), `busenv` (set a property on every matching node, which then refreshes) and
 * `busshutdown` (shut every matching node down gracefully); 204 as Spring. The path segments after the id are
 * the destination, joined by `:` (Spring's ALL_REMAINING selector).
 */
import { ConfbusError } from '@confbus/core';
import { clientErrors } from '../errors.js';
import type { ManagementEndpoint } from './management-endpoints.js';

// Each operation answers CONFBUS_BUS_UNAVAILABLE (503) itself when there is no running bus (ClientBus#running).
const busRefresh: ManagementEndpoint = {
  methods: ['POST'],
  acceptsSubPath: true,
  handle: async ({ client, segments }) => {
    // Its CONFBUS_BUS_UNAVAILABLE (503) and CONFBUS_REFRESH_FAILED (500) are answered by their status.
    await client.busMember.refreshAndPublish(destinationOf(segments));
    return { status: 204 };
  },
};

/** Spring's `busenv` body: `{"name": "...", "value": "..."}` (a number or boolean value is taken as its text). */
function nameAndValue(body: unknown): Record<string, string> {
  const { name, value } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ConfbusError(
      clientErrors.CONFBUS_MANAGEMENT_BAD_REQUEST,
      'busenv needs a JSON body {"name": "<property>", "value": "<value>"}: "name" is missing or empty',
    );
  }
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw new ConfbusError(
      clientErrors.CONFBUS_MANAGEMENT_BAD_REQUEST,
      `busenv needs a JSON body {"name": "${name}", "value": "<value>"}: "value" must be a string`,
    );
  }
  return { [name]: String(value) };
}

/** `POST /actuator/busenv[/{destination...}]` (Spring Cloud Bus 2.x: `bus-env`): set a property on every targeted node. */
const busEnv: ManagementEndpoint = {
  methods: ['POST'],
  acceptsSubPath: true,
  handle: async ({ client, segments, body }) => {
    const values = nameAndValue(body);
    await client.busMember.changeEnvironmentAndPublish(values, destinationOf(segments));
    return { status: 204 };
  },
};

/** `POST /actuator/busshutdown[/{destination...}]`: shut every targeted node down gracefully (this one after answering). */
const busShutdown: ManagementEndpoint = {
  methods: ['POST'],
  acceptsSubPath: true,
  handle: async ({ client, segments }) => {
    const { self } = await client.busMember.shutdownAndPublish(destinationOf(segments));
    if (self) setImmediate(() => void client.requestShutdown());
    return { status: 204 };
  },
};

/** Spring's ALL_REMAINING selector: the path segments after the endpoint id, joined by `:`. */
function destinationOf(segments: readonly string[]): string | undefined {
  return segments.length > 0 ? segments.join(':') : undefined;
}

export function busEndpoints(): Record<string, ManagementEndpoint> {
  return {
    busrefresh: busRefresh,
    'bus-refresh': busRefresh,
    busenv: busEnv,
    'bus-env': busEnv,
    busshutdown: busShutdown,
  };
}
