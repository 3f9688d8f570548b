/**
 * Console API, audit side:
 *   GET /-/console/api/audit?limit   the most recent audit entries (confbus.audit.recent-entries), newest first
 * Operators and admins only: entries hold no secret, but they say who did what from where.
 */
import type { ConsoleAuditLog } from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import type { AuditTrail } from '../audit/index.js';
import { CONSOLE_API } from './console-context.js';
import { type Query, page } from './console-params.js';

export function registerAuditRoutes(app: FastifyInstance, trail: AuditTrail | undefined): void {
  app.get<{ Querystring: Query; Reply: ConsoleAuditLog }>(
    `${CONSOLE_API}/audit`,
    { config: { access: 'operator' } },
    async (request) => ({
      enabled: trail !== undefined,
      entries: trail ? trail.latest(page(request.query, 100).limit) : [],
    }),
  );
}
