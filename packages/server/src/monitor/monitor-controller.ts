/**
 * `POST /monitor`: Git host push webhooks (Spring Cloud Config Monitor's endpoint), and
 * `GET /actuator/refresh-events`. The route reads the request and answers; MonitorService decides. Beyond
 * Spring: optional per-host webhook signatures (401 and nothing published when wrong), a file that does not
 * parse is reported and no refresh is published for the services it feeds, repeated webhooks for a commit that
 * was already announced publish nothing new, and without a bus the answer says so instead of pretending.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RefreshTracker } from '../bus/refresh-tracker.js';
import { coreErrors, springErrorBody } from '@confbus/core';
import { serverErrors } from '../errors.js';
import { booleanParameter, integerParameter } from '../http/query-parameters.js';
import { WebhookError, parsePushWebhook } from './index.js';
import type { MonitorService, PushOutcome } from './monitor-service.js';
import { type WebhookHost, pushedCommit, webhookHostFromHeaders } from './push-webhook.js';

export interface MonitorRoutesOptions {
  service: MonitorService;
  tracker: RefreshTracker;
  /** The tracker's bound, the most acks `?acks=` may ask for. */
  maxAcksPerEvent: number;
}

interface RawBodyRequest extends FastifyRequest {
  rawBody?: Buffer;
}

export function registerMonitorRoutes(app: FastifyInstance, options: MonitorRoutesOptions): void {
  // Encapsulated so the raw-body parsers apply to /monitor only.
  app.register(async (scope) => {
    addRawBodyParsers(scope);
    // Operators only when it is not open (confbus.security.monitor-open); audited either way.
    scope.post('/monitor', { config: { audit: { action: 'monitor.push' } } }, async (request, reply) => {
      const outcome = await receivePush(request as RawBodyRequest, options.service);
      return withImpact(outcome, answer(outcome, request, reply));
    });
  });
  // Paginated: the listing is bounded whatever the bus sent (see RefreshTracker's limits).
  app.get('/actuator/refresh-events', async (request, reply) => {
    const listing = options.tracker.list(refreshEventsPage(request.query, options.maxAcksPerEvent));
    reply.header('x-total-count', String(listing.total));
    return listing.events;
  });
}

/**
 * JSON and form bodies, parsed as fastify would, with the bytes kept as they came (`rawBody`): a webhook's
 * signature is computed over them.
 */
function addRawBodyParsers(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    ['application/json', 'text/plain'],
    { parseAs: 'buffer' },
    (request, body, done) => {
      const raw = body as Buffer;
      (request as RawBodyRequest).rawBody = raw;
      if (raw.length === 0) return done(null, undefined);
      try {
        done(null, JSON.parse(raw.toString('utf8')));
      } catch {
        done(new WebhookError('Request body is not valid JSON'), undefined);
      }
    },
  );
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (request, body, done) => {
      const raw = body as Buffer;
      (request as RawBodyRequest).rawBody = raw;
      const form: Record<string, string | string[]> = {};
      for (const [key, value] of new URLSearchParams(raw.toString('utf8'))) {
        const existing = form[key];
        form[key] =
          existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
      }
      done(null, form);
    },
  );
}

/** Reads a push webhook, checks its signature, and has the service handle it. */
async function receivePush(request: RawBodyRequest, service: MonitorService): Promise<PushOutcome> {
  const rawBody = request.rawBody ?? Buffer.alloc(0);
  if (request.body === undefined || request.body === null || rawBody.length === 0) {
    throw new WebhookError('Required request body is missing');
  }
  const push = parsePushWebhook({
    headers: request.headers,
    body: request.body,
    contentType: String(request.headers['content-type'] ?? ''),
  });
  // The sender's headers decide which secret checks the request, whatever shape its body has.
  const host: WebhookHost = webhookHostFromHeaders(request.headers) ?? push.host;
  service.verifySignature(host, request.headers, rawBody);
  // `?impact=true`: the answer also says what the push changed, per application and profile (keys, no values).
  const impact = booleanParameter(request.query, 'impact', false);
  return service.handlePush({ ...push, commit: pushedCommit(request.body) }, { impact });
}

/** `?limit&offset&acks` of /actuator/refresh-events, within their bounds. */
function refreshEventsPage(
  query: unknown,
  maxAcksPerEvent: number,
): { limit: number; offset: number; ackLimit: number } {
  return {
    limit: integerParameter(query, 'limit', { default: 20, min: 1, max: 200 }),
    offset: integerParameter(query, 'offset', { default: 0, min: 0, max: 1_000_000 }),
    ackLimit: integerParameter(query, 'acks', { default: 200, min: 0, max: maxAcksPerEvent }),
  };
}

/**
 * The answer with the push's blast radius when it was asked for: Spring's array of services becomes
 * `{services, impact}` (only then: a Spring-shaped caller never asks), and an error body gains `impact`.
 */
function withImpact(outcome: PushOutcome, body: unknown): unknown {
  if (outcome.impact === undefined) return body;
  if (Array.isArray(body)) return { services: body, impact: outcome.impact };
  return { ...(body as object), impact: outcome.impact };
}

/**
 * 200 with the refreshed services; 503 without a bus; 422 naming the files that do not parse; 422
 * CONFBUS_CONTRACT_HELD when the contract gate held applications back (docs/contracts.md, "The gate").
 */
function answer(outcome: PushOutcome, request: FastifyRequest, reply: FastifyReply): unknown {
  if (outcome.held !== undefined && outcome.held.length > 0 && outcome.kind !== 'bus-disabled')
    return heldAnswer(outcome, request, reply);
  switch (outcome.kind) {
    case 'published':
      return outcome.services;
    case 'bus-disabled': {
      const { status, code } = serverErrors.CONFBUS_BUS_DISABLED;
      reply.code(status);
      return {
        ...springErrorBody(
          status,
          code,
          `Git was re-read (commit ${outcome.commit}), but no refresh event was published because the bus is disabled ` +
            `(spring.cloud.bus.enabled=false). Services that would have been refreshed: ${outcome.services.join(', ') || 'none'}`,
          request.url,
        ),
        ...(outcome.held !== undefined && outcome.held.length > 0 ? { held: outcome.held } : {}),
      };
    }
    case 'some-unparsable':
      reply.code(422);
      return {
        ...springErrorBody(
          422,
          coreErrors.CONFBUS_CONFIG_PARSE.code,
          `Not refreshed, these files do not parse: ${outcome.rejected.map((r) => r.message).join('; ')}`,
          request.url,
        ),
        rejected: outcome.rejected,
        refreshed: outcome.services,
      };
  }
}

/** The push's commit held some applications back: each with its violations; the others were announced. */
function heldAnswer(outcome: PushOutcome, request: FastifyRequest, reply: FastifyReply): unknown {
  const { status, code } = serverErrors.CONFBUS_CONTRACT_HELD;
  const held = outcome.held ?? [];
  reply.code(status);
  const names = held.map((hold) => hold.application).join(', ');
  return {
    ...springErrorBody(
      status,
      code,
      `Commit ${outcome.commit ?? ''} breaks the contracts of ${names}: held back at their last valid commit, ` +
        `no refresh published for them${outcome.services.length > 0 ? `; refreshed ${outcome.services.join(', ')}` : ''}`,
      request.url,
    ),
    commit: outcome.commit,
    held,
    refreshed: outcome.services,
    ...(outcome.kind === 'some-unparsable' ? { rejected: outcome.rejected } : {}),
  };
}
