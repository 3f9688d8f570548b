/**
 * `POST /monitor`: Git host push webhooks (Spring Cloud Config Monitor's endpoint). Fetches from Git first, so
 * clients that re-fetch get the new commit, then publishes one refresh event per guessed service.
 * Beyond Spring: optional per-host webhook signatures (401 and nothing published when wrong), a file that does not
 * parse is reported and no refresh is published for the services it feeds, repeated webhooks for a commit that
 * was already announced publish nothing new, and without a bus the answer says so instead of pretending.
 */
import {
  ConfbusError,
  type Logger,
  type RefreshBusEvent,
  coreErrors,
  guessServiceNames,
  isConfigFileName,
  springErrorBody,
} from '@confbus/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RefreshTracker } from '../bus/refresh-tracker.js';
import type { ConfigFileParser } from '../environment/config-file-parser.js';
import type { GitMirror } from '../git/index.js';
import { serverErrors } from '../errors.js';
import { integerParameter } from '../http/query-parameters.js';
import { type WebhookSecrets, WebhookError, parsePushWebhook, verifyWebhookSignature } from './index.js';
import { type WebhookHost, webhookHostFromHeaders } from './push-webhook.js';

export interface RefreshPublisher {
  publishRefresh(destination?: string): Promise<RefreshBusEvent>;
}

export interface MonitorRoutesOptions {
  mirror: GitMirror;
  /** Checks that the changed files parse (large ones off the event loop). */
  parser: ConfigFileParser;
  bus: RefreshPublisher;
  busEnabled: boolean;
  tracker: RefreshTracker;
  /** The tracker's bound, the most acks `?acks=` may ask for. */
  maxAcksPerEvent: number;
  secrets: WebhookSecrets;
  /** Reject webhooks that carry no signature we can verify. */
  requireSignature: boolean;
  /** With a secret configured for some host, still accept requests that cannot be verified (form, simple...). */
  allowUnsigned: boolean;
  /** Most changed files considered one by one; beyond, the push refreshes every service (`*`). */
  maxFiles: number;
  logger: Logger;
}

interface RawBodyRequest extends FastifyRequest {
  rawBody?: Buffer;
}

export function registerMonitorRoutes(app: FastifyInstance, options: MonitorRoutesOptions): void {
  /**
   * Publications per service for the newest commit, so a burst of webhooks for one push publishes once. A
   * webhook arriving while a publication is in flight awaits it (and shares its failure); a failed one is
   * forgotten, so the host's redelivery of the webhook publishes it.
   */
  const announced = new Map<string, Map<string, Promise<void>>>();

  // Encapsulated so the raw-body parsers apply to /monitor only.
  app.register(async (scope) => {
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

    scope.post('/monitor', async (request, reply) => {
      const rawBody = (request as RawBodyRequest).rawBody ?? Buffer.alloc(0);
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
      const signature = verifyWebhookSignature({
        host,
        headers: request.headers,
        rawBody,
        secrets: options.secrets,
      });
      if (!signature.ok) {
        options.logger.warn({ host }, `Rejected webhook: ${signature.reason}`);
        throw new ConfbusError(serverErrors.CONFBUS_BAD_WEBHOOK_SIGNATURE, signature.reason);
      }
      if (!hasSecretFor(host, options.secrets)) {
        if (options.requireSignature) {
          throw new ConfbusError(
            serverErrors.CONFBUS_BAD_WEBHOOK_SIGNATURE,
            `Webhooks must be signed (confbus.monitor.require-signature) and no secret is configured for '${host}'`,
          );
        }
        if (Object.values(options.secrets).some((secret) => secret !== undefined) && !options.allowUnsigned) {
          options.logger.warn({ host }, 'Rejected unsigned webhook');
          throw new ConfbusError(
            serverErrors.CONFBUS_BAD_WEBHOOK_SIGNATURE,
            `A webhook secret is configured, so unsigned '${host}' requests are refused ` +
              '(set confbus.monitor.allow-unsigned=true to accept them)',
          );
        }
      }
      if (push.paths.length === 0) return [];

      const outcome = await options.mirror.refreshNow();
      if (outcome.stale) {
        throw new ConfbusError(
          serverErrors.CONFBUS_UPSTREAM_UNAVAILABLE,
          'Could not fetch from the Git repository, so no refresh was published (clients would re-read the old state)',
        );
      }
      const { commit } = await options.mirror.resolveFetched(null);
      // Beyond maxFiles (or as many guessed services) one broadcast replaces per-file events and checks.
      const broadcast = push.paths.length > options.maxFiles;
      const rejected = broadcast
        ? []
        : await findUnparsableFiles(options.mirror, options.parser, commit, push.paths);
      const accepted = push.paths.filter((path) => !rejected.some((r) => r.file === path));
      const guessed = guessServiceNames(accepted);
      const services = broadcast || guessed.length > options.maxFiles ? ['*'] : guessed;

      if (!options.busEnabled) {
        options.logger.warn(
          { services },
          'Webhook received but the bus is disabled: no refresh event was published',
        );
        const { status, code } = serverErrors.CONFBUS_BUS_DISABLED;
        reply.code(status);
        return springErrorBody(
          status,
          code,
          `Git was re-read (commit ${commit}), but no refresh event was published because the bus is disabled ` +
            `(spring.cloud.bus.enabled=false). Services that would have been refreshed: ${services.join(', ') || 'none'}`,
          request.url,
        );
      }

      const publications = announced.get(commit) ?? new Map<string, Promise<void>>();
      announced.clear();
      announced.set(commit, publications);
      const failed: Array<{ service: string; error: unknown }> = [];
      // All sent at once, in the order the services were named: one channel keeps that order on the wire, and
      // the last service's event no longer waits for the broker to confirm every earlier one (a round trip
      // each, which under load was most of the time between the first and the last event).
      const pending = services.map((service) => {
        options.logger.info({ service, commit }, `Refresh for: ${service}`);
        let publication = publications.get(service);
        if (publication === undefined) {
          const started = options.bus
            .publishRefresh(service)
            .then((event) => options.tracker.published(event, commit));
          publication = started;
          publications.set(service, started);
          // Registered before anyone awaits it, so the entry is gone before a waiter can answer.
          started.catch(() => {
            if (publications.get(service) === started) publications.delete(service);
          });
        }
        return { service, publication };
      });
      for (const { service, publication } of pending) {
        try {
          await publication;
        } catch (error) {
          failed.push({ service, error });
        }
      }
      if (failed.length > 0) {
        const reason =
          failed[0]!.error instanceof Error ? failed[0]!.error.message : String(failed[0]!.error);
        options.logger.warn(
          { services: failed.map((f) => f.service), commit, reason },
          'Could not publish refresh events',
        );
        throw new ConfbusError(
          serverErrors.CONFBUS_BUS_PUBLISH_FAILED,
          `Git was re-read (commit ${commit}), but the refresh for ${failed.map((f) => f.service).join(', ')} ` +
            `could not be published (${reason}); redeliver the webhook to retry`,
        );
      }

      if (rejected.length > 0) {
        reply.code(422);
        return {
          ...springErrorBody(
            422,
            coreErrors.CONFBUS_CONFIG_PARSE.code,
            `Not refreshed, these files do not parse: ${rejected.map((r) => r.message).join('; ')}`,
            request.url,
          ),
          rejected,
          refreshed: services,
        };
      }
      return services;
    });
  });

  // Paginated: the listing is bounded whatever the bus sent (see RefreshTracker's limits).
  app.get('/actuator/refresh-events', async (request, reply) => {
    const listing = options.tracker.list({
      limit: integerParameter(request.query, 'limit', { default: 20, min: 1, max: 200 }),
      offset: integerParameter(request.query, 'offset', { default: 0, min: 0, max: 1_000_000 }),
      ackLimit: integerParameter(request.query, 'acks', {
        default: 200,
        min: 0,
        max: options.maxAcksPerEvent,
      }),
    });
    reply.header('x-total-count', String(listing.total));
    return listing.events;
  });
}

function hasSecretFor(host: WebhookHost, secrets: WebhookSecrets): boolean {
  const key = host === 'bitbucket-cloud' || host === 'bitbucket-server' ? 'bitbucket' : host;
  return (secrets as Record<string, string | undefined>)[key] !== undefined;
}

async function findUnparsableFiles(
  mirror: GitMirror,
  parser: ConfigFileParser,
  commit: string,
  paths: readonly string[],
): Promise<Array<{ file: string; message: string }>> {
  const rejected: Array<{ file: string; message: string }> = [];
  for (const path of new Set(paths)) {
    if (!isConfigFileName(path)) continue;
    const clean = path.replace(/^\/+/, '');
    const bytes = await mirror.readFile(commit, clean);
    if (bytes === undefined) continue;
    try {
      await parser.parse(clean, bytes);
    } catch (error) {
      rejected.push({ file: path, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return rejected;
}
