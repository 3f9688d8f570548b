/** Reads the security settings and installs basic auth when a password is configured. */
import type { Settings } from '@confbus/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LIVENESS_PATH, READINESS_PATH } from '../health/health-controller.js';
import { type OpenRoute, installBasicAuth } from './basic-auth.js';

export const HEALTH_ROUTE: OpenRoute = { method: 'GET', url: '/actuator/health' };
/** Kubernetes probes: open with health, and like it show only a status to anonymous callers. */
export const PROBE_ROUTES: readonly OpenRoute[] = [
  { method: 'GET', url: LIVENESS_PATH },
  { method: 'GET', url: READINESS_PATH },
];
export const MONITOR_ROUTE: OpenRoute = { method: 'POST', url: '/monitor' };

/** Basic auth is on when a password is set. An empty one would let an empty Authorization through: not "on". */
export function isAuthEnabled(settings: Settings): boolean {
  return (settings.optionalString('spring.security.user.password') ?? '') !== '';
}

/**
 * Installs basic auth when a password is configured. Returns who may see health details: everyone without
 * auth; with auth, only requests that present valid credentials (Spring's `show-details: when-authorized`),
 * so an open health endpoint tells anonymous callers UP or not, and nothing about the repository.
 */
export function installSecurity(
  app: FastifyInstance,
  settings: Settings,
): (request: FastifyRequest) => boolean {
  const password = settings.optionalString('spring.security.user.password');
  // An empty password would let an empty Authorization through; treat it as "not configured".
  if (password === undefined || password === '') return () => true;
  const openRoutes: OpenRoute[] = [];
  if (settings.boolean('confbus.security.health-open')) openRoutes.push(HEALTH_ROUTE, ...PROBE_ROUTES);
  if (settings.boolean('confbus.security.monitor-open')) openRoutes.push(MONITOR_ROUTE);
  return installBasicAuth(app, {
    credentials: { username: settings.string('spring.security.user.name'), password },
    openRoutes,
  });
}
