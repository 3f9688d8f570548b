/** Reads the security settings and installs basic auth when a password is configured. */
import type { Settings } from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import { type OpenRoute, installBasicAuth } from './basic-auth.js';

export const HEALTH_ROUTE: OpenRoute = { method: 'GET', url: '/actuator/health' };
export const MONITOR_ROUTE: OpenRoute = { method: 'POST', url: '/monitor' };

/** Returns whether authentication is on. */
export function installSecurity(app: FastifyInstance, settings: Settings): boolean {
  const password = settings.optionalString('spring.security.user.password');
  // An empty password would let an empty Authorization through; treat it as "not configured".
  if (password === undefined || password === '') return false;
  const openRoutes: OpenRoute[] = [];
  if (settings.boolean('confbus.security.health-open')) openRoutes.push(HEALTH_ROUTE);
  if (settings.boolean('confbus.security.monitor-open')) openRoutes.push(MONITOR_ROUTE);
  installBasicAuth(app, {
    credentials: { username: settings.string('spring.security.user.name'), password },
    openRoutes,
  });
  return true;
}
