/**
 * `POST /actuator/busrefresh[/{destination...}]` and its Spring Cloud Bus 2.x name `bus-refresh`:
 * refresh this node (when addressed) and every other matching node over the bus; 204 as Spring.
 * The path segments after the id are joined by `:` (Spring's ALL_REMAINING selector).
 */
import { ConfigClientError } from '../errors.js';
import type { ManagementEndpoint } from '../management-endpoints.js';

const busRefresh: ManagementEndpoint = {
  methods: ['POST'],
  acceptsSubPath: true,
  handle: async ({ client, segments }) => {
    const state = client.busState;
    if (state.state === 'disabled') {
      throw new ConfigClientError(
        'CONFBUS_BUS_UNAVAILABLE',
        'The bus is disabled (spring.cloud.bus.enabled=false): nothing was refreshed. Use /actuator/refresh for this node only.',
      );
    }
    if (state.state === 'waiting-for-port') {
      throw new ConfigClientError(
        'CONFBUS_BUS_UNAVAILABLE',
        'The bus has not started yet (it waits for the application to report its port): nothing was refreshed.',
      );
    }
    const destination = segments.length > 0 ? segments.join(':') : undefined;
    // Its CONFBUS_BUS_UNAVAILABLE (503) and CONFBUS_REFRESH_FAILED (500) are answered by their status.
    await state.bus.refreshAndPublish(destination);
    return { status: 204 };
  },
};

export function busEndpoints(): Record<string, ManagementEndpoint> {
  return { busrefresh: busRefresh, 'bus-refresh': busRefresh };
}
