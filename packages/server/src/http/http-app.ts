/**
 * The fastify instance of the server, on a node:http server whose handler gives the repeat-request fast path
 * the first look at each request (see repeat-request-fast-path.ts).
 */
import { createServer } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { RepeatRequestFastPath } from './repeat-request-fast-path.js';
import { type RequestLimits, requestLimitServerOptions } from './request-limits.js';

export interface HttpAppOptions {
  logger: Logger;
  limits: RequestLimits;
  /** Undefined: every request goes through fastify. */
  fastPath: RepeatRequestFastPath | undefined;
}

export function createHttpApp({ logger, limits, fastPath }: HttpAppOptions): FastifyInstance {
  return Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    serverFactory: (fastifyHandler) => {
      const server = createServer({ maxHeaderSize: limits.maxHeaderBytes }, (req, res) => {
        if (!fastPath?.handle(req, res, fastifyHandler)) fastifyHandler(req, res);
      });
      server.keepAliveTimeout = 72_000; // fastify's default, which it sets only on servers it creates
      return server;
    },
    // Per-request log lines would dominate the cost of a cache hit; metrics and errors are logged instead.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: it showed in the cached-path profile, and request logging is off anyway.
    childLoggerFactory: (parent) => parent,
    ...requestLimitServerOptions(limits),
  });
}
