/** Maps every failure to a status code and Spring's error body; unexpected errors are logged, not leaked. */
import { ApplicationNotFoundError } from '../environment/environment-service.js';
import { isConfbusError } from '@confbus/core';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidLabelError, LabelNotFoundError, RepositoryUnavailableError } from '../git/index.js';
import { HttpError, springErrorBody } from './http-errors.js';
import { LIMIT_SETTINGS, installUrlLengthLimit } from './request-limits.js';

interface Mapped {
  status: number;
  code: string;
  message: string;
}

function mapError(error: unknown, request: FastifyRequest): Mapped | undefined {
  if (error instanceof HttpError)
    return { status: error.statusCode, code: error.code, message: error.message };
  if (isConfbusError(error)) return { status: error.status, code: error.code, message: error.message };
  if (error instanceof InvalidLabelError) return { status: 400, code: error.code, message: error.message };
  if (error instanceof LabelNotFoundError) return { status: 404, code: error.code, message: error.message };
  if (error instanceof ApplicationNotFoundError)
    return { status: 404, code: error.code, message: error.message };
  if (error instanceof RepositoryUnavailableError)
    return { status: 503, code: error.code, message: error.message };
  if (error instanceof Error && (error as { code?: unknown }).code === 'CONFBUS_CONFIG_PARSE') {
    // The repository holds a file that does not parse: a server-side fault, named precisely.
    return { status: 500, code: 'CONFBUS_CONFIG_PARSE', message: error.message };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      code: 'CONFBUS_BODY_TOO_LARGE',
      message: `Request body larger than ${request.routeOptions.bodyLimit} bytes (${LIMIT_SETTINGS.body})`,
    };
  }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const type = String(request.headers['content-type'] ?? '(none)').slice(0, 100);
    return {
      status: 415,
      code: 'CONFBUS_UNSUPPORTED_MEDIA_TYPE',
      message: `Content-Type '${type}' is not accepted by ${request.method} ${request.routeOptions.url ?? ''}`,
    };
  }
  if (
    typeof fastifyError.statusCode === 'number' &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    return {
      status: fastifyError.statusCode,
      code: fastifyError.code ?? 'CONFBUS_BAD_REQUEST',
      message: fastifyError.message,
    };
  }
  return undefined;
}

export function installErrorHandling(app: FastifyInstance, maxUrlLength: number): void {
  installUrlLengthLimit(app, maxUrlLength);

  app.setErrorHandler((error, request, reply) => {
    const mapped = mapError(error, request);
    if (mapped) {
      if (mapped.status >= 500)
        request.log.error({ code: mapped.code, path: request.routeOptions.url }, mapped.message);
      reply
        .code(mapped.status)
        .send(springErrorBody(mapped.status, mapped.code, mapped.message, request.url));
      return;
    }
    request.log.error({ err: error }, 'unexpected error');
    reply
      .code(500)
      .send(
        springErrorBody(
          500,
          'CONFBUS_INTERNAL',
          'Internal error; the server log has the details',
          request.url,
        ),
      );
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(
        springErrorBody(
          404,
          'CONFBUS_NOT_FOUND',
          `No endpoint ${request.method} ${request.url.split('?')[0]}`,
          request.url,
        ),
      );
  });
}
