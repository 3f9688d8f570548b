/**
 * The audit feature: the trail every module records to, and one sink of the answered requests
 * (support/answered-requests.ts) that records each request to a route that declares `config.audit` (an action, and
 * how to name its target), with its outcome taken from the status answered — so a refused, failed or successful
 * refresh each leave one line, whatever the route's code did.
 */
import type { Logger } from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { AnsweredRequest, AnsweredRequests } from '../support/answered-requests.js';
import type { AuditOutcome } from './audit-log.js';
import type { AuditSettings } from './audit-settings.js';
import { AuditTrail } from './audit-trail.js';
import { type AuditSink, auditSinkTo } from './audit-writer.js';

/** What an audited route's target is named from. */
export type AuditedRequest = Pick<AnsweredRequest, 'params' | 'body'>;

/** What a route declares to be audited. */
export interface AuditedAction {
  readonly action: string;
  /** The target from the request (params or parsed body); never a secret. Default: the route. */
  readonly target?: (request: AuditedRequest) => string | undefined;
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
  /** Where the requests to audited routes come from. */
  readonly answered: AnsweredRequests;
}

/** Returns the trail, or undefined when the audit log is off. */
export function installAudit(app: FastifyInstance, install: AuditInstall): AuditTrail | undefined {
  const { settings } = install;
  if (!settings.enabled) return undefined;
  const sink = install.sink ?? auditSinkTo(settings.file, install.cwd ?? process.cwd(), install.logger);
  const trail = new AuditTrail(sink, install.clock, settings.recentEntries, install.logger);
  install.answered.add((request) => {
    const audited = request.config?.audit;
    if (audited === undefined) return;
    const { status } = request;
    let target: string | undefined;
    try {
      target = audited.target?.(request);
    } catch {
      target = undefined; // a body the route refused: the route is named instead
    }
    trail.record({
      action: audited.action,
      target: target ?? `${request.method} ${request.route}`,
      principal: request.principal,
      remoteAddress: request.remote,
      outcome: outcomeOf(status),
      status,
    });
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
