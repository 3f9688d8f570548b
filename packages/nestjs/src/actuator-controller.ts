/**
 * The client's actuator endpoints as a Nest controller: every request under the controller's path goes to the
 * client's management handler, which answers it on the raw node:http response (Express's response is one;
 * Fastify's is `reply.raw`, after `reply.hijack()` so Fastify sends nothing itself). The endpoints, their exposure
 * and their answers are the client's; nothing is re-implemented here.
 */
import { createManagementHandler, type ManagementHandler } from '@confbus/client';
import { All, Controller, Inject, Req, Res, type Type } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_HANDLE_TOKEN, type ActuatorOptions, type ClientHandle } from './module-options.js';

/** Express's request is the IncomingMessage; Fastify's request and reply wrap theirs in `raw`. */
type PlatformRequest = IncomingMessage & { raw?: IncomingMessage; body?: unknown };
type PlatformResponse = ServerResponse & { raw?: ServerResponse; hijack?: () => void };

/**
 * The index, an endpoint, and up to three segments under it (`health/liveness`, `busrefresh/app:**`). Named
 * segments, not a wildcard: Express 5 wants `*name`, Fastify a bare trailing `*`, and no one spelling serves both.
 */
const ROUTES = ['', ':endpoint', ':endpoint/:p1', ':endpoint/:p1/:p2', ':endpoint/:p1/:p2/:p3'];

/** A controller class at `path` (the path is a decorator argument, so each module makes its own class). */
export function actuatorController({
  path = 'actuator',
  exposure,
  extraEndpoints,
}: ActuatorOptions): Type<unknown> {
  const own = `/${path.replace(/^\/+|\/+$/g, '')}`;

  @Controller(own)
  class ConfbusActuatorController {
    /** A handler per base path actually seen (with or without the global prefix). */
    readonly #handlers = new Map<string, ManagementHandler>();

    constructor(
      @Inject(CLIENT_HANDLE_TOKEN) private readonly handle: ClientHandle,
      @Inject(ApplicationConfig) private readonly appConfig: ApplicationConfig,
    ) {}

    @All(ROUTES)
    answer(@Req() request: PlatformRequest, @Res() response: PlatformResponse): void {
      const req = request.raw ?? request;
      const res = response.raw ?? response;
      response.hijack?.();
      const handled = this.#handlerFor(req)(req, res, request.body);
      // Only reached if the route and the handler disagree on the base path: answer rather than hang.
      if (!handled && !res.headersSent) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 404, error: 'Not Found', path: req.url }));
      }
    }

    /** The base path is the controller's, under the global prefix unless the request came without it. */
    #handlerFor(req: IncomingMessage): ManagementHandler {
      const prefix = this.appConfig.getGlobalPrefix().replace(/^\/+|\/+$/g, '');
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      const prefixed = prefix === '' ? own : `/${prefix}${own}`;
      const base = pathname === prefixed || pathname.startsWith(`${prefixed}/`) ? prefixed : own;
      let handler = this.#handlers.get(base);
      if (!handler) {
        handler = createManagementHandler(this.handle.client, { basePath: base, exposure, extraEndpoints });
        this.#handlers.set(base, handler);
      }
      return handler;
    }
  }
  return ConfbusActuatorController;
}
