/**
 * The fastify instance of the server, on a node:http server whose handler gives the repeat-request fast path
 * the first look at each request (see repeat-request-fast-path.ts).
 */
import { type RequestListener, type ServerOptions, createServer } from 'node:http';
import { type Server as HttpsServer, createServer as createHttpsServer } from 'node:https';
import type { ServerTls } from './tls/server-tls.js';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { RepeatRequestFastPath } from '../serving/repeat-request-fast-path.js';
import { type RequestLimits, requestLimitServerOptions } from './request-limits.js';

export interface HttpAppOptions {
  logger: Logger;
  limits: RequestLimits;
  /** Undefined: every request goes through fastify. */
  fastPath: RepeatRequestFastPath | undefined;
  /** HTTPS, its certificates reloaded while the app is open (see tls/server-tls.ts); undefined: plain HTTP. */
  tls?: Pick<ServerTls, 'serverOptions' | 'watch'> | undefined;
}

export function createHttpApp({ logger, limits, fastPath, tls }: HttpAppOptions): FastifyInstance {
  let stopWatching: (() => void) | undefined;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    serverFactory: (fastifyHandler) => {
      const handler: RequestListener = (req, res) => {
        if (!fastPath?.handle(req, res, fastifyHandler)) fastifyHandler(req, res);
      };
      const options: ServerOptions = { maxHeaderSize: limits.maxHeaderBytes };
      const server = tls ? createSecureServer(options, handler, tls) : createServer(options, handler);
      server.keepAliveTimeout = 72_000; // fastify's default, which it sets only on servers it creates
      return server;
    },
    // Per-request log lines would dominate the cost of a cache hit; metrics and errors are logged instead.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: it showed in the cached-path profile, and request logging is off anyway.
    childLoggerFactory: (parent) => parent,
    ...requestLimitServerOptions(limits),
    // The server is serverFactory's; this only makes listen() report https:// addresses.
    ...(tls ? { https: {} } : {}),
  });
  app.addHook('onClose', async () => stopWatching?.());
  return app;

  function createSecureServer(
    options: ServerOptions,
    handler: RequestListener,
    tls: NonNullable<HttpAppOptions['tls']>,
  ): HttpsServer {
    const server = createHttpsServer({ ...options, ...tls.serverOptions() }, handler);
    stopWatching = tls.watch(server);
    return server;
  }
}
