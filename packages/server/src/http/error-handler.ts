/**
 * Maps every failure to Spring's error body by its status: a ConfbusError carries its own; the HTTP framework's
 * own errors (body too large, wrong content type, other 4xx) are first given a confbus code. Unexpected errors,
 * and ConfbusErrors whose message is for the log only (`internal`), are logged and answered without details.
 */
import { ConfbusError, isConfbusError, springErrorBody } from '@confbus/core';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { serverErrors } from '../errors.js';
import { LIMIT_SETTINGS, installUrlLengthLimit } from './request-limits.js';

/**
 * Fastify's own errors as ConfbusErrors, or undefined for anything that is not a client error (a fault: 500).
 * Fastify marks its errors with a `code` (`FST_ERR_…`) and a 4xx `statusCode`; those are its documented API.
 */
function fromFramework(error: FastifyError, request: FastifyRequest): ConfbusError | undefined {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new ConfbusError(
      serverErrors.CONFBUS_BODY_TOO_LARGE,
      `Request body larger than ${request.routeOptions.bodyLimit} bytes (${LIMIT_SETTINGS.body})`,
    );
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const type = String(request.headers['content-type'] ?? '(none)').slice(0, 100);
    return new ConfbusError(
      serverErrors.CONFBUS_UNSUPPORTED_MEDIA_TYPE,
      `Content-Type '${type}' is not accepted by ${request.method} ${request.routeOptions.url ?? ''}`,
    );
  }
  const status = error.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's status and code are kept as they are (a 400 FST_ERR_CTP_EMPTY_JSON_BODY says more than ours).
    const descriptor = {
      ...serverErrors.CONFBUS_BAD_REQUEST,
      status,
      code: error.code ?? 'CONFBUS_BAD_REQUEST',
    };
    return new ConfbusError(descriptor, error.message);
  }
  return undefined;
}

/** 503s that say "too much at once, retry" rather than "broken". */
const BUSY_CODES: ReadonlySet<string> = new Set([
  serverErrors.CONFBUS_SERVER_BUSY.code,
  serverErrors.CONFBUS_TOO_MANY_REPOSITORIES.code,
]);

export function installErrorHandling(app: FastifyInstance, maxUrlLength: number): void {
  installUrlLengthLimit(app, maxUrlLength);

  app.setErrorHandler((error, request, reply) => {
    const known = isConfbusError(error) ? error : fromFramework(error as FastifyError, request);
    if (known === undefined || known.internal) {
      request.log.error({ err: error }, 'unexpected error');
      const internal = serverErrors.CONFBUS_INTERNAL;
      reply
        .code(internal.status)
        .send(
          springErrorBody(
            internal.status,
            internal.code,
            'Internal error; the server log has the details',
            request.url,
          ),
        );
      return;
    }
    if (BUSY_CODES.has(known.code)) {
      // Load, not a fault: one warning line, and a hint for clients and proxies to come back shortly.
      request.log.warn({ code: known.code, path: request.routeOptions.url }, known.message);
      reply.header('retry-after', '1');
    } else if (known.status >= 500)
      request.log.error({ code: known.code, path: request.routeOptions.url }, known.message);
    reply.code(known.status).send(springErrorBody(known.status, known.code, known.message, request.url));
  });

  app.setNotFoundHandler((request, reply) => {
    const notFound = serverErrors.CONFBUS_NOT_FOUND;
    reply
      .code(notFound.status)
      .send(
        springErrorBody(
          notFound.status,
          notFound.code,
          `No endpoint ${request.method} ${request.url.split('?')[0]}`,
          request.url,
        ),
      );
  });
}
