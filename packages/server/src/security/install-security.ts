/** Installs basic auth when a password is configured (security-settings.ts reads them). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LIVENESS_PATH, READINESS_PATH } from '../health/health-controller.js';
import { type OpenRoute, installBasicAuth } from './basic-auth.js';
import type { SecuritySettings } from './security-settings.js';

export const HEALTH_ROUTE: OpenRoute = { method: 'GET', url: '/actuator/health' };
/** Kubernetes probes: open with health, and like it show only a status to anonymous callers. */
export const PROBE_ROUTES: readonly OpenRoute[] = [
  { method: 'GET', url: LIVENESS_PATH },
  { method: 'GET', url: READINESS_PATH },
];
export const MONITOR_ROUTE: OpenRoute = { method: 'POST', url: '/monitor' };

/**
 * Installs basic auth when a password is configured. Returns who may see health details: everyone without
 * auth; with auth, only requests that present valid credentials (Spring's `show-details: when-authorized`),
 * so an open health endpoint tells anonymous callers UP or not, and nothing about the repository.
 */
export function installSecurity(
  app: FastifyInstance,
  { credentials, healthOpen, monitorOpen }: SecuritySettings,
): (request: FastifyRequest) => boolean {
  if (credentials === undefined) return () => true;
  const openRoutes: OpenRoute[] = [];
  if (healthOpen) openRoutes.push(HEALTH_ROUTE, ...PROBE_ROUTES);
  if (monitorOpen) openRoutes.push(MONITOR_ROUTE);
  return installBasicAuth(app, { credentials, openRoutes });
}
