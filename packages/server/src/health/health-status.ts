/**
 * Health as Spring Boot's actuator shapes it: a status per component, groups (liveness, readiness) that
 * aggregate some of them, and the HTTP status a load balancer reads (503 for DOWN and OUT_OF_SERVICE).
 */
/** Boot's statuses, STALE, and any status of the operator's own (`health.down-health-status`). */
export type HealthStatus = 'UP' | 'DOWN' | 'OUT_OF_SERVICE' | 'UNKNOWN' | 'STALE' | (string & {});

export interface ComponentHealth {
  readonly status: HealthStatus;
  readonly details?: Record<string, unknown>;
}

/** Worst first, as Boot's default status order; STALE (serving an old state) still serves, so ranks as UP. */
const ORDER: readonly HealthStatus[] = ['DOWN', 'OUT_OF_SERVICE', 'UP', 'STALE', 'UNKNOWN'];

/**
 * The worst status; as in Boot's SimpleStatusAggregator, a status outside the known order (an operator's own
 * `down-health-status`) sorts first.
 */
export function aggregateStatus(statuses: readonly HealthStatus[]): HealthStatus {
  if (statuses.length === 0) return 'UNKNOWN';
  const worst = [...statuses].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0] ?? 'UNKNOWN';
  return worst === 'STALE' ? 'UP' : worst;
}

/** Boot's default mapping: 503 for DOWN and OUT_OF_SERVICE, 200 for every other status. */
export function httpStatusOf(status: HealthStatus): number {
  return status === 'DOWN' || status === 'OUT_OF_SERVICE' ? 503 : 200;
}
