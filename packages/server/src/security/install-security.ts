/**
 * Authentication and access for the whole server (docs/security.md). Spring Cloud Config has no security of its
 * own (users add spring-boot-starter-security and set spring.security.user.*); confbus builds it in with the same
 * user setting, plus clients with their own credentials, applications and roles (security-settings.ts).
 *
 * One hook runs on every request: it finds the principal (a header verified before costs a digest and a lookup,
 * a new one a bcrypt round, see authenticator.ts), refuses a blocked address (429, login-throttle.ts), a request
 * without valid credentials (401) and one whose route needs a role the principal lacks (403). What a route needs is
 * its `config.access` (principal.ts's RouteAccess); a route that says nothing needs viewer for GET and operator for
 * anything else, so a new route is closed to plain clients until it says otherwise. Which application a request
 * reads is known only once its route parsed it: those routes call `requireRead`, and the repeat-request fast path
 * asks `mayRead` — the same check on the same principal, so the fast path answers only what the route would.
 */
import { springErrorBody } from '@confbus/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConfbusError } from '@confbus/core';
import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import { serverErrors } from '../errors.js';
import { LIVENESS_PATH, READINESS_PATH } from '../health/health-controller.js';
import { Authenticator } from './authenticator.js';
import { LoginThrottle } from './login-throttle.js';
import {
  ANONYMOUS_WITHOUT_SECURITY,
  type Principal,
  type ReadTarget,
  type RouteAccess,
} from './principal.js';
import type { SecuritySettings } from './security-settings.js';

export const BASIC_REALM = 'confbus';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (install-security.ts); default viewer for GET, operator otherwise. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** Set by the security hook: who the request acts as (undefined on an open route without credentials). */
    principal: Principal | undefined;
  }
}

export interface OpenRoute {
  method: string;
  /** The route pattern as registered with fastify, e.g. `/actuator/health`. */
  url: string;
}

export const HEALTH_ROUTE: OpenRoute = { method: 'GET', url: '/actuator/health' };
/** Kubernetes probes: open with health, and like it show only a status to anonymous callers. */
export const PROBE_ROUTES: readonly OpenRoute[] = [
  { method: 'GET', url: LIVENESS_PATH },
  { method: 'GET', url: READINESS_PATH },
];
export const MONITOR_ROUTE: OpenRoute = { method: 'POST', url: '/monitor' };

/** The read check the repeat-request fast path applies before answering from the cache. */
export interface RememberedReadAccess {
  /** True only when `authorization` was verified before and its principal may read `target`. */
  mayRead(authorization: string | undefined, target: ReadTarget): boolean;
}

export interface ServerSecurity {
  /** Credentials are configured: every request not open needs them. */
  readonly enabled: boolean;
  /** Who the request acts as; undefined on an open route without valid credentials. */
  principalOf(request: FastifyRequest): Principal | undefined;
  /** Health details for callers who presented valid credentials (everyone without security). */
  showDetails(request: FastifyRequest): boolean;
  /** Throws 403 (CONFBUS_APPLICATION_FORBIDDEN) unless the request's principal may read `target`. */
  requireRead(request: FastifyRequest, target: ReadTarget): void;
  /** For the fast path; undefined without security (everyone reads everything). */
  readonly remembered: RememberedReadAccess | undefined;
}

export interface SecurityInstall {
  readonly settings: SecuritySettings;
  readonly audit: AuditLog;
  readonly clock: Clock;
}

export function installSecurity(
  app: FastifyInstance,
  { settings, audit, clock }: SecurityInstall,
): ServerSecurity {
  if (settings.credentials.length === 0) return withoutSecurity;
  const authenticator = new Authenticator(settings.credentials);
  const throttle = new LoginThrottle(
    settings.maxLoginFailures,
    settings.loginFailureWindowSeconds * 1000,
    clock,
  );
  const openRoutes: OpenRoute[] = [];
  if (settings.healthOpen) openRoutes.push(HEALTH_ROUTE, ...PROBE_ROUTES);
  if (settings.monitorOpen) openRoutes.push(MONITOR_ROUTE);
  const open = new Set(openRoutes.map((route) => `${route.method.toUpperCase()} ${route.url}`));
  const isOpen = (request: FastifyRequest): boolean => {
    // Match the routed pattern, not the raw URL: `/actuator/health/../foo` or `//actuator/health` must not
    // borrow the health route's openness.
    const url = request.routeOptions.url;
    if (url === undefined) return false;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    return open.has(`${method} ${url}`);
  };
  const entryOf = (request: FastifyRequest) => ({
    principal: request.principal?.name ?? 'anonymous',
    remoteAddress: request.ip,
    target: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
  });

  /** Refuses (403) a principal without the role the route needs; true when the request may go on. */
  const authorized = (request: FastifyRequest, reply: FastifyReply, principal: Principal): boolean => {
    const access = accessOf(request);
    if (principal.has(access)) return true;
    const { status, code } = serverErrors.CONFBUS_FORBIDDEN;
    audit.record({ ...entryOf(request), action: 'access.denied', outcome: 'denied', status, detail: code });
    reply
      .code(status)
      .send(
        springErrorBody(
          status,
          code,
          `'${principal.name}' lacks the ${access} role this endpoint needs (${principal.settingPrefix}.roles)`,
          request.url,
        ),
      );
    return false;
  };

  app.decorateRequest('principal', undefined);
  // A callback hook (no promise per request for a remembered header): it runs on every request.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const header = request.headers.authorization;
    const known = authenticator.remembered(header);
    if (known) {
      request.principal = known;
      if (isOpen(request) || authorized(request, reply, known)) done();
      return;
    }
    if (isOpen(request)) {
      // Credentials on an open route only decide what it shows (health details); wrong ones are not refused.
      if (header === undefined) done();
      else
        void authenticator.authenticate(header).then((principal) => {
          request.principal = principal;
          done();
        }, done);
      return;
    }
    const retryAfter = throttle.retryAfterSeconds(request.ip);
    if (retryAfter !== undefined) {
      refuseThrottled(request, reply, retryAfter, audit, entryOf(request));
      return;
    }
    void authenticator.authenticate(header).then((principal) => {
      if (principal === undefined) {
        refuseUnauthenticated(request, reply, header, { throttle, audit, authenticator }, entryOf(request));
        return;
      }
      request.principal = principal;
      if (authorized(request, reply, principal)) done();
    }, done);
  });

  return {
    enabled: true,
    principalOf: (request) => request.principal,
    showDetails: (request) => request.principal !== undefined,
    requireRead(request, target) {
      const principal = request.principal;
      // The hook let the request through, so it has a principal; an open route never reads configuration.
      const refusal = principal ? principal.refusalToRead(target) : 'no credentials were presented';
      if (refusal === undefined) return;
      const { status, code } = serverErrors.CONFBUS_APPLICATION_FORBIDDEN;
      audit.record({
        ...entryOf(request),
        action: 'access.denied',
        target: target.applications.join(','),
        outcome: 'denied',
        status,
        detail: code,
      });
      throw new ConfbusError(serverErrors.CONFBUS_APPLICATION_FORBIDDEN, `Forbidden: ${refusal}`);
    },
    remembered: {
      mayRead(authorization, target) {
        return authenticator.remembered(authorization)?.mayRead(target) === true;
      },
    },
  };
}

/** What the route needs: its `config.access`, else viewer for reads and operator for the rest. */
function accessOf(request: FastifyRequest): RouteAccess {
  const declared = request.routeOptions.config?.access;
  if (declared !== undefined) return declared;
  // No route matched: a 404 follows; it needs credentials, no role.
  if (request.routeOptions.url === undefined) return 'authenticated';
  return request.method === 'GET' || request.method === 'HEAD' ? 'viewer' : 'operator';
}

interface AuditedRequest {
  principal: string;
  remoteAddress: string;
  target: string;
}

function refuseUnauthenticated(
  request: FastifyRequest,
  reply: FastifyReply,
  header: string | undefined,
  {
    throttle,
    audit,
    authenticator,
  }: { throttle: LoginThrottle; audit: AuditLog; authenticator: Authenticator },
  entry: AuditedRequest,
): void {
  // A request without credentials is a browser's or a client's first try, not a failed login.
  if (header !== undefined) {
    throttle.failed(request.ip);
    // Only a configured user name is written: an unknown "name" may be a password typed in the wrong field.
    const claimed = authenticator.claimedUser(header);
    audit.record({
      ...entry,
      principal: claimed ?? 'unknown',
      action: 'auth.failure',
      outcome: 'denied',
      status: 401,
    });
  }
  // Neither the header nor the presented user name is logged.
  request.log.debug(
    { path: request.routeOptions.url ?? 'unmatched' },
    'Rejected request without valid credentials',
  );
  const { status, code } = serverErrors.CONFBUS_UNAUTHORIZED;
  reply
    .code(status)
    .header('www-authenticate', `Basic realm="${BASIC_REALM}"`)
    .send(
      springErrorBody(status, code, 'Full authentication is required to access this resource', request.url),
    );
}

function refuseThrottled(
  request: FastifyRequest,
  reply: FastifyReply,
  retryAfter: number,
  audit: AuditLog,
  entry: AuditedRequest,
): void {
  const { status, code } = serverErrors.CONFBUS_LOGIN_RATE_LIMITED;
  audit.record({
    ...entry,
    principal: 'unknown',
    action: 'auth.rate-limited',
    outcome: 'rate-limited',
    status,
  });
  request.log.warn(
    { path: request.routeOptions.url ?? 'unmatched' },
    'Too many failed logins from this address',
  );
  reply
    .code(status)
    .header('retry-after', String(retryAfter))
    .send(
      springErrorBody(
        status,
        code,
        `Too many failed logins from this address (confbus.security.max-login-failures); retry after ${retryAfter} s`,
        request.url,
      ),
    );
}

const withoutSecurity: ServerSecurity = {
  enabled: false,
  principalOf: () => ANONYMOUS_WITHOUT_SECURITY,
  showDetails: () => true,
  requireRead: () => {},
  remembered: undefined,
};
