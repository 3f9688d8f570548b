/**
 * `/actuator/health` on a client, shaped as Spring Boot's actuator shapes it, with the Kubernetes probe groups
 * the server has too:
 * - `/health`: UP when the configuration came from the server; on a backup or local settings only it is worth a
 *   look, not a restart: still 200, with UNKNOWN. The bus is a component that never pulls the status down.
 * - `/health/liveness`: the process answers (Boot's `livenessState`), always UP while it does.
 * - `/health/readiness`: `readinessState` UP from start until `close()` (or a `busshutdown`) begins, then
 *   OUT_OF_SERVICE with 503, so a load balancer stops sending traffic before the service stops.
 * - `/health/{component}`: `bus`, `livenessState`, `readinessState`; anything else is 404.
 */
import { springErrorBody } from '@confbus/core';
import type { ConfigClient } from '../config-client.js';
import { ApplicationHealth } from '../rollout-report/application-health.js';
import type { ManagementRequest, ManagementResponse } from './management-endpoints.js';

type Status = 'UP' | 'DOWN' | 'OUT_OF_SERVICE' | 'UNKNOWN';

interface Component {
  readonly status: Status | string;
}

export function healthEndpoint({ client, segments }: ManagementRequest): ManagementResponse {
  const [name, ...rest] = segments;
  if (name === undefined) {
    const body = healthBody(client);
    return { status: httpStatus(String(body.status)), body };
  }
  const components = probeComponents(client);
  const bus = client.busHealth();
  const groups: Record<string, Record<string, Component>> = {
    liveness: { livenessState: components.livenessState },
    readiness: { readinessState: components.readinessState },
  };
  if (rest.length === 0 && Object.hasOwn(groups, name)) return groupResponse(groups[name]!);
  const all: Record<string, Component> = { ...components, ...(bus ? { bus } : {}) };
  if (rest.length === 0 && Object.hasOwn(all, name)) {
    const component = all[name]!;
    return { status: httpStatus(component.status), body: component };
  }
  const path = `/actuator/health/${segments.join('/')}`;
  const known = [...Object.keys(groups), ...Object.keys(all)].join(', ');
  return {
    status: 404,
    body: springErrorBody(
      404,
      undefined,
      `No health group or component '${segments.join('/')}' (${known})`,
      path,
    ),
  };
}

function probeComponents(client: ConfigClient): { livenessState: Component; readinessState: Component } {
  return {
    livenessState: { status: 'UP' },
    readinessState: { status: client.closing ? 'OUT_OF_SERVICE' : 'UP' },
  };
}

function groupResponse(members: Record<string, Component>): ManagementResponse {
  const statuses = Object.values(members).map((member) => member.status);
  // Boot's default order: DOWN, OUT_OF_SERVICE, UP, UNKNOWN — the most severe member decides.
  const status = ['DOWN', 'OUT_OF_SERVICE', 'UP', 'UNKNOWN'].find((s) => statuses.includes(s)) ?? 'UNKNOWN';
  return { status: httpStatus(status), body: { status, components: members } };
}

/** Boot's HTTP mapping: DOWN and OUT_OF_SERVICE are 503, anything else 200. */
function httpStatus(status: string): number {
  return status === 'DOWN' || status === 'OUT_OF_SERVICE' ? 503 : 200;
}

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
  const own = status.source === 'server' ? 'UP' : 'UNKNOWN';
  // The application's indicators (ConfigClient.registerHealthIndicator) decide with it, most severe first.
  const application = client.applicationHealth.components();
  const body: Record<string, unknown> = {
    status: ApplicationHealth.worst({ ...application, config: { status: own } }, own),
    details,
  };
  // A broker outage does not pull the overall status down: the service still serves, the bus
  // reconnects and catches up by itself, and a DOWN would have orchestrators restart the fleet.
  const bus = client.busHealth();
  if (bus || Object.keys(application).length > 0)
    body.components = { ...application, ...(bus ? { bus } : {}) };
  return body;
}
