/**
 * Optional HTTP basic authentication for the whole server.
 *
 * Spring Cloud Config has no security of its own (reference §8: "nothing is built in"; users add
 * spring-boot-starter-security and set spring.security.user.*). confbus builds the common case in, with the
 * same setting names: when `spring.security.user.password` is set, every endpoint needs those credentials,
 * except the routes an operator leaves open (health for load balancers, /monitor for webhooks).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { springErrorBody } from '@confbus/core';
import { serverErrors } from '../errors.js';
import { type BasicCredentials, CredentialsVerifier, parseBasicAuthorization } from './basic-credentials.js';

export const BASIC_REALM = 'confbus';

export interface OpenRoute {
  method: string;
  /** The route pattern as registered with fastify, e.g. `/actuator/health`. */
  url: string;
}

export interface BasicAuthOptions {
  credentials: BasicCredentials;
  /** Routes that answer without credentials. A GET route listed here is open for HEAD too. */
  openRoutes: readonly OpenRoute[];
}

/** Installs the hook; returns a check that tells whether a request presented valid credentials. */
export function installBasicAuth(
  app: FastifyInstance,
  options: BasicAuthOptions,
): (request: FastifyRequest) => boolean {
  const verifier = new CredentialsVerifier(options.credentials);
  const isAuthenticated = (request: FastifyRequest): boolean =>
    verifier.verify(parseBasicAuthorization(request.headers.authorization));
  const open = new Set(options.openRoutes.map((route) => `${route.method.toUpperCase()} ${route.url}`));
  const isOpen = (request: FastifyRequest): boolean => {
    // Match the routed pattern, not the raw URL: `/actuator/health/../foo` or `//actuator/health` must not
    // borrow the health route's openness.
    const url = request.routeOptions.url;
    if (url === undefined) return false;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    return open.has(`${method} ${url}`);
  };

  // A callback hook (no promise per request), like the URL length check: it runs on every request.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (isOpen(request) || isAuthenticated(request)) {
      done();
      return;
    }
    // Neither the header nor the presented user name is logged: a password typed into the wrong field
    // would end up in the log.
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
  });
  return isAuthenticated;
}
