/**
 * The audit feature: the trail every module records to, and one hook that records each request to a route that
 * declares `config.audit` (an action, and how to name its target), with its outcome taken from the status
 * answered — so a refused, failed or successful refresh each leave one line, whatever the route's code did.
 */
import type { Logger } from '@confbus/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import type { AuditOutcome } from './audit-log.js';
import type { AuditSettings } from './audit-settings.js';
import { AuditTrail } from './audit-trail.js';
import { type AuditSink, auditSinkTo } from './audit-writer.js';

/** What a route declares to be audited. */
export interface AuditedAction {
  readonly action: string;
  /** The target from the request (params or parsed body); never a secret. Default: the route. */
  readonly target?: (request: FastifyRequest) => string | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Record one audit entry per request to this route (install-audit.ts). */
    audit?: AuditedAction;
  }
}

export interface AuditInstall {
  readonly settings: AuditSettings;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where lines go; default from the settings (the file, or the server's log). */
  readonly sink?: AuditSink | undefined;
  readonly cwd?: string;
  /** The name of the request's principal (the security feature knows it). */
  readonly principalOf: (request: FastifyRequest) => string;
}

/** Returns the trail, or undefined when the audit log is off. */
export function installAudit(app: FastifyInstance, install: AuditInstall): AuditTrail | undefined {
  const { settings } = install;
  if (!settings.enabled) return undefined;
  const sink = install.sink ?? auditSinkTo(settings.file, install.cwd ?? process.cwd(), install.logger);
  const trail = new AuditTrail(sink, install.clock, settings.recentEntries, install.logger);
  app.addHook('onResponse', (request, reply, done) => {
    const audited = request.routeOptions.config?.audit;
    if (audited !== undefined) {
      const status = reply.statusCode;
      let target: string | undefined;
      try {
        target = audited.target?.(request);
      } catch {
        target = undefined; // a body the route refused: the route is named instead
      }
      trail.record({
        action: audited.action,
        target: target ?? `${request.method} ${request.routeOptions.url ?? ''}`,
        principal: install.principalOf(request),
        remoteAddress: request.ip,
        outcome: outcomeOf(status),
        status,
      });
    }
    done();
  });
  app.addHook('onClose', async () => trail.close());
  return trail;
}

function outcomeOf(status: number): AuditOutcome {
  if (status < 400) return 'success';
  if (status === 401 || status === 403) return 'denied';
  if (status === 429) return 'rate-limited';
  return 'failure';
}
