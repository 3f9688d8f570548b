/**
 * Input limits, each answered with a 4xx and a Spring error body that names the setting to change:
 *   URL longer than confbus.server.max-url-length        → 414 (also for one over-long path parameter)
 *   body larger than confbus.server.max-body-bytes       → 413 (fastify's bodyLimit; mapped in error-handler)
 *   request line + headers over max-header-bytes         → 431 (node's maxHeaderSize, answered on the socket)
 *   malformed percent-encoding in the path               → 400 (fastify's router refuses to decode it)
 * Too many profiles (confbus.server.max-profiles) is checked by the environment routes; an unsupported
 * content type on a POST is fastify's 415, mapped in error-handler.
 */
import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { type ErrorDescriptor, springErrorBody } from '@confbus/core';
import { reasonPhrase } from '@confbus/core/internal';
import { serverErrors } from '../errors.js';

export interface RequestLimits {
  maxUrlLength: number;
  maxBodyBytes: number;
  maxHeaderBytes: number;
}

export const LIMIT_SETTINGS = {
  url: 'confbus.server.max-url-length',
  body: 'confbus.server.max-body-bytes',
  header: 'confbus.server.max-header-bytes',
  profiles: 'confbus.server.max-profiles',
} as const;

const urlTooLongMessage = (maxUrlLength: number): string =>
  `URL longer than ${maxUrlLength} characters (${LIMIT_SETTINGS.url})`;

/**
 * The fastify constructor options that enforce the limits before any route runs. The header size limit is
 * not among them: it belongs to the node:http server, which create-config-server.ts builds itself.
 */
export function requestLimitServerOptions(
  limits: RequestLimits,
): Pick<FastifyServerOptions, 'bodyLimit' | 'routerOptions' | 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    bodyLimit: limits.maxBodyBytes,
    // Labels and application names may be long; the URL length limit is the real bound.
    routerOptions: { maxParamLength: limits.maxUrlLength },
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const [{ status, code }, message]: [ErrorDescriptor, string] =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? [serverErrors.CONFBUS_URL_TOO_LONG, urlTooLongMessage(limits.maxUrlLength)]
          : error.code === 'FST_ERR_BAD_URL'
            ? [serverErrors.CONFBUS_BAD_URL, 'The path holds malformed percent-encoding']
            : [serverErrors.CONFBUS_BAD_REQUEST, 'The request could not be routed'];
      void reply.code(status).send(springErrorBody(status, code, message, request.url));
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) =>
      answerClientError(error, socket, limits),
  };
}

/** The URL length check, which needs no routing; registered before every other onRequest hook. */
export function installUrlLengthLimit(app: FastifyInstance, maxUrlLength: number): void {
  // A callback hook, not an async one: it runs on every request and a promise per request shows in profiles.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.length <= maxUrlLength) {
      done();
      return;
    }
    const { status, code } = serverErrors.CONFBUS_URL_TOO_LONG;
    reply.code(status).send(springErrorBody(status, code, urlTooLongMessage(maxUrlLength), '/'));
  });
}

/**
 * Errors node's HTTP parser raises before fastify sees a request. The request never parsed, so there is no
 * path to report and nothing about it is logged (its bytes may hold credentials).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, limits: RequestLimits): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [{ status, code }, message]: [ErrorDescriptor, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          serverErrors.CONFBUS_HEADERS_TOO_LARGE,
          `Request line and headers larger than ${limits.maxHeaderBytes} bytes (${LIMIT_SETTINGS.header})`,
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [serverErrors.CONFBUS_REQUEST_TIMEOUT, 'The request was not received in time']
        : [serverErrors.CONFBUS_MALFORMED_REQUEST, 'The request is not valid HTTP/1.1'];
  if (socket.writable) {
    const body = JSON.stringify(springErrorBody(status, code, message, ''));
    socket.write(
      `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
