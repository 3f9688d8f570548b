/**
 * Console API, session and actions:
 *   GET  /-/console/api/session        who may act, and the CSRF token actions must carry
 *   GET  /-/console/api/events         server-sent events (push, refresh, ack, presence, repository)
 *   POST /-/console/api/bus-refresh    {"target":"all"|"application"|"profile"|"instance", ...} → 202
 * With basic auth on, every console route needs credentials (the server-wide hook), so only authenticated users
 * can act. Actions also need `X-Confbus-Csrf: <token>` and a JSON body, and are refused when the browser says
 * the request came from another site: a page elsewhere cannot make a logged-in browser refresh the fleet.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  ConfbusError,
  type ConsoleRefreshPublished,
  type ConsoleRefreshRequest,
  type ConsoleSession,
  type Logger,
  validateApplicationName,
  validateProfile,
} from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditedRequest } from '../audit/index.js';
import { validateRequest } from '../serving/environment-controller.js';
import { serverErrors } from '../errors.js';
import { CONSOLE_API, type ConsoleContext } from './console-context.js';
import { badRequest } from './console-params.js';
import { requestOf } from './fleet-status.js';

export const CSRF_HEADER = 'x-confbus-csrf';
/** The fields of a bus-refresh body, not checked yet: destinationOf validates them. */
type RefreshFields = { [Field in keyof ConsoleRefreshRequest]?: unknown };
const BUS_ID = /^[A-Za-z0-9._@+-]+(?::[A-Za-z0-9._,@+-]+)+$/;

export function registerActionRoutes(app: FastifyInstance, context: ConsoleContext, logger: Logger): void {
  app.get<{ Reply: ConsoleSession }>(`${CONSOLE_API}/session`, async (request) => {
    const principal = context.authEnabled ? context.principalOf(request) : undefined;
    return {
      authEnabled: context.authEnabled,
      ...(principal ? { user: principal.name, roles: principal.roles } : {}),
      csrfToken: context.csrfToken,
      csrfHeader: CSRF_HEADER,
      busEnabled: context.busEnabled,
    };
  });

  app.get(`${CONSOLE_API}/events`, (request, reply) => {
    const user = context.authEnabled ? context.principalOf(request)?.name : undefined;
    context.events.open(request, reply, user);
  });

  type Refresh = { Body: unknown; Reply: ConsoleRefreshPublished };
  // Operators (the default for a POST); audited with the destination it names, whatever the outcome.
  const audited = { action: 'bus.refresh', target: (request: AuditedRequest) => destinationOf(request.body) };
  app.post<Refresh>(`${CONSOLE_API}/bus-refresh`, { config: { audit: audited } }, async (request, reply) => {
    checkActionRequest(request, context);
    const destination = destinationOf(request.body);
    const bus = context.bus();
    if (!context.busEnabled || !bus)
      throw new ConfbusError(
        serverErrors.CONFBUS_CONSOLE_BUS_DISABLED,
        'The bus is disabled (spring.cloud.bus.enabled=false) or not started: nothing was published',
      );
    if (!bus.connected)
      throw new ConfbusError(
        serverErrors.CONFBUS_CONSOLE_PUBLISH_FAILED,
        'The bus is not connected to the broker; nothing was published (the connection is retried in the background)',
      );
    // Check upstream first, so the event announces the commit the clients will fetch.
    const commit = await commitToAnnounce(context, request.body);
    let event;
    try {
      event = await bus.publishRefresh(destination, commit);
    } catch (error) {
      throw new ConfbusError(
        serverErrors.CONFBUS_CONSOLE_PUBLISH_FAILED,
        `The refresh for ${destination} could not be published: ${messageOf(error)}`,
        { cause: error },
      );
    }
    context.tracker.published(event, commit);
    context.events.publish('refresh', { id: event.id, destination: event.destinationService, commit });
    logger.info(
      { destination: event.destinationService, event: event.id, commit },
      'Console published a bus refresh',
    );
    reply.code(202);
    return {
      id: event.id,
      destination: event.destinationService,
      commit,
      publishedAt: new Date(event.timestamp).toISOString(),
    };
  });
}

/**
 * The commit a refresh announces (clients fetch at least it; acks on it count as "on the commit"): for an
 * application, a profile or a known instance, what the repository router serves that target now, so an
 * application of a named repository gets that repository's commit; otherwise, or when nothing is served to the
 * target, the default label's commit in the default repository. Either way after an upstream check.
 */
async function commitToAnnounce(context: ConsoleContext, body: unknown): Promise<string> {
  const { target, application, profile, instance } = body as RefreshFields;
  const known = target === 'instance' ? context.fleet.find(instance as string) : undefined;
  const request =
    target === 'application' || target === 'profile'
      ? validateRequest(
          {
            name: application as string,
            profiles: target === 'profile' ? (profile as string) : 'default',
            label: null,
          },
          context.maxProfiles,
        )
      : known && requestOf(known, known.label);
  if (request) {
    try {
      return await context.repositories.serve(request, async (_served, found) => found.revision.commit);
    } catch {
      // Nothing served to it: the default repository's commit, as for everything.
    }
  }
  return (await context.mirror.resolve(null)).commit;
}

/**
 * A console action must name one of the server's hosts (DNS rebinding: see allowed-hosts.ts), come from the
 * console page (Sec-Fetch-Site, Origin) and carry the CSRF token.
 */
/** An action's checks: the server's own Host, and the CSRF token from the console page. */
export function checkActionRequest(request: FastifyRequest, context: ConsoleContext): void {
  const host = request.headers.host;
  if (!context.allowedHosts.allows(host))
    throw new ConfbusError(
      serverErrors.CONFBUS_CONSOLE_HOST,
      `Console actions are accepted under the server's own names only, not Host ${JSON.stringify((host ?? '').slice(0, 100))}: ` +
        'add the name to confbus.console.allowed-hosts if the server is reached under it',
    );
  checkCsrf(request, context.csrfToken);
}

function checkCsrf(request: FastifyRequest, token: string): void {
  const fail = (why: string) => new ConfbusError(serverErrors.CONFBUS_CONSOLE_CSRF, why);
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    throw fail('Console actions are accepted from the console page only (Sec-Fetch-Site)');
  const origin = request.headers.origin;
  // The host only: behind a TLS-terminating proxy the scheme the server sees differs from the page's.
  if (origin !== undefined && hostOf(origin) !== request.host)
    throw fail('Console actions are accepted from the console page only (Origin)');
  const presented = request.headers[CSRF_HEADER];
  const expected = Buffer.from(token);
  const given = Buffer.from(typeof presented === 'string' ? presented : '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw fail(`Missing or wrong ${CSRF_HEADER} header: read the token from GET ${CONSOLE_API}/session`);
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** The bus destination a target names: everything, an application, `app:profile`, or one instance's bus id. */
export function destinationOf(body: unknown): string {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest(
      'The body must be a JSON object: {"target": "all" | "application" | "profile" | "instance", …}',
    );
  const { target, application, profile, instance } = body as RefreshFields;
  const name = (): string => {
    const problem = typeof application === 'string' ? validateApplicationName(application) : 'is required';
    if (problem !== undefined || (application as string).includes(','))
      throw badRequest(`Field 'application' ${problem ?? 'must name one application'}`);
    return application as string;
  };
  switch (target) {
    case 'all':
      return '**';
    case 'application':
      return `${name()}:**`;
    case 'profile': {
      const app = name();
      const problem = typeof profile === 'string' ? validateProfile(profile) : 'is required';
      if (problem !== undefined || (profile as string).includes(','))
        throw badRequest(`Field 'profile' ${problem ?? 'must name one profile'}`);
      return `${app}:${profile as string}:**`;
    }
    case 'instance':
      if (typeof instance !== 'string' || instance.length > 300 || !BUS_ID.test(instance))
        throw badRequest("Field 'instance' must be a bus id such as sample:dev:8080:3f2a (no wildcards)");
      return instance;
    default:
      throw badRequest("Field 'target' must be one of all, application, profile, instance");
  }
}
