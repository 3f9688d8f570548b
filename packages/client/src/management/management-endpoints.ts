/**
 * Spring-style management endpoints (`/actuator/refresh`, `/health`, `/env`, `/prometheus`) as a plain node:http
 * handler, plus thin adapters for express and fastify written against minimal structural types,
 * so the library depends on neither framework. Only endpoints named in
 * `management.endpoints.web.exposure.include` answer; the bus ones (`busrefresh`, `bus-refresh`)
 * are built in too (built-in-endpoints.ts), and more plug in through `extraEndpoints`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { builtInEndpoints } from './built-in-endpoints.js';
import type { ConfigClient } from '../config-client.js';
import { ConfbusError, isConfbusError, springErrorBody, writeJson } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { clientErrors } from '../errors.js';

export type ManagementMethod = 'GET' | 'POST' | 'DELETE';

export interface ManagementRequest {
  readonly method: ManagementMethod;
  /** Path segments after the endpoint id, decoded: `/actuator/busrefresh/a:b` → `['a:b']`. */
  readonly segments: readonly string[];
  /** Parsed JSON body of a POST (undefined when empty). */
  readonly body: unknown;
  readonly client: ConfigClient;
}

export interface ManagementResponse {
  readonly status: number;
  /** Sent as JSON; omit for an empty body (e.g. 204). */
  readonly body?: unknown;
  /** Sent as is instead of `body`, with its content type (the Prometheus text format). */
  readonly text?: { readonly contentType: string; readonly content: string };
}

export interface ManagementEndpoint {
  readonly methods: readonly ManagementMethod[];
  /** Whether the endpoint takes sub-paths (`/busrefresh/{destination}`); otherwise they are 404. */
  readonly acceptsSubPath?: boolean;
  handle(request: ManagementRequest): ManagementResponse | Promise<ManagementResponse>;
}

export interface ManagementHandlerOptions {
  /** Default `/actuator`. */
  readonly basePath?: string;
  /** Endpoint ids that answer (`*` = all); default: `management.endpoints.web.exposure.include`. */
  readonly exposure?: readonly string[];
  /** More endpoints by id; they may also replace a built-in one. Subject to exposure like the rest. */
  readonly extraEndpoints?: Readonly<Record<string, ManagementEndpoint>>;
}

/** Handles the request if it is under the base path (returns true), else returns false and leaves it alone. */
export type ManagementHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => boolean;

const MAX_BODY_BYTES = 64 * 1024;

export function createManagementHandler(
  client: ConfigClient,
  options: ManagementHandlerOptions = {},
): ManagementHandler {
  const base = (options.basePath ?? '/actuator').replace(/\/+$/, '');
  const exposure = new Set(options.exposure ?? client.settings.exposure);
  const endpoints: Record<string, ManagementEndpoint> = { ...builtInEndpoints(), ...options.extraEndpoints };
  const exposed = (id: string) => Object.hasOwn(endpoints, id) && (exposure.has('*') || exposure.has(id));

  return (req, res, parsedBody) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== base && path !== `${base}/` && !path.startsWith(`${base}/`)) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    const segments = pathSegments(path, base);
    if (segments === undefined) {
      sendJson(res, 400, springErrorBody(400, undefined, 'Malformed path', path));
      return true;
    }
    const [id, ...rest] = segments;
    if (id === undefined) {
      // Spring's discovery page: links to what is exposed.
      const links: Record<string, { href: string }> = { self: { href: base } };
      for (const name of Object.keys(endpoints).filter(exposed)) links[name] = { href: `${base}/${name}` };
      sendJson(res, 200, { _links: links });
      return true;
    }
    const endpoint = exposed(id) ? endpoints[id] : undefined;
    if (!endpoint || (rest.length > 0 && !endpoint.acceptsSubPath)) {
      sendJson(
        res,
        404,
        springErrorBody(404, undefined, `No management endpoint is exposed at ${path}`, path),
      );
      return true;
    }
    if (!endpoint.methods.includes(method as ManagementMethod)) {
      res.setHeader('allow', endpoint.methods.join(', '));
      sendJson(res, 405, springErrorBody(405, undefined, `${method} is not supported by ${id}`, path));
      return true;
    }
    const request = { method: method as ManagementMethod, segments: rest, client };
    void answer(endpoint, request, req, res, { path, parsedBody });
    return true;
  };
}

/** The decoded segments of `path` after `base`; undefined when one is not valid percent-encoding. */
function pathSegments(path: string, base: string): string[] | undefined {
  try {
    return path
      .slice(base.length)
      .split('/')
      .filter((part) => part !== '')
      .map((part) => decodeURIComponent(part));
  } catch {
    return undefined;
  }
}

/** Reads a POST's body (unless a framework already parsed it), runs the endpoint and sends its answer. */
async function answer(
  endpoint: ManagementEndpoint,
  request: Omit<ManagementRequest, 'body'>,
  req: IncomingMessage,
  res: ServerResponse,
  { path, parsedBody }: { path: string; parsedBody: unknown },
): Promise<void> {
  try {
    const body = request.method === 'POST' ? (parsedBody ?? (await readJsonBody(req))) : undefined;
    const { method, segments, client } = request;
    const response = await endpoint.handle({ method, segments, body, client });
    if (response.text) sendText(res, response.status, response.text);
    else sendJson(res, response.status, response.body);
  } catch (error) {
    // Spring's actuator body, without the server's `code` field: the wire format of Spring's own clients.
    const status = isConfbusError(error) ? error.status : 500;
    const message = messageOf(error);
    sendJson(res, status, springErrorBody(status, undefined, message, path));
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = writeJson(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: NonNullable<ManagementResponse['text']>): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': text.contentType,
    'content-length': Buffer.byteLength(text.content),
  });
  res.end(text.content);
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new ConfbusError(clientErrors.CONFBUS_MANAGEMENT_BAD_REQUEST, 'Request body larger than 64 KiB');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfbusError(clientErrors.CONFBUS_MANAGEMENT_BAD_REQUEST, 'Request body is not valid JSON');
  }
}

/** Minimal shape of an express request/response/next; express's own types fit. */
export type ExpressLikeMiddleware = (
  req: IncomingMessage & { body?: unknown },
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** `app.use(expressMiddleware(client))`: answers management paths, passes everything else on. */
export function expressMiddleware(
  client: ConfigClient,
  options?: ManagementHandlerOptions,
): ExpressLikeMiddleware {
  const handle = createManagementHandler(client, options);
  return (req, res, next) => {
    // A body parser that ran first has consumed the stream; use what it parsed.
    const parsed = (req as { _body?: boolean })._body === true ? req.body : undefined;
    if (!handle(req, res, parsed)) next();
  };
}

/** Minimal shape of a fastify instance; fastify's own types fit. */
export interface FastifyLikeInstance {
  route(options: {
    method: string[];
    url: string;
    handler: (
      request: { raw: IncomingMessage; body?: unknown },
      reply: { raw: ServerResponse; hijack(): unknown },
    ) => void;
  }): unknown;
}

/** `await app.register(fastifyPlugin(client))`: routes the management paths to the handler. */
export function fastifyPlugin(
  client: ConfigClient,
  options?: ManagementHandlerOptions,
): (instance: FastifyLikeInstance) => Promise<void> {
  const handle = createManagementHandler(client, options);
  const base = (options?.basePath ?? '/actuator').replace(/\/+$/, '');
  return async (instance) => {
    for (const url of [base, `${base}/*`]) {
      instance.route({
        method: ['GET', 'POST', 'DELETE'],
        url,
        handler: (request, reply) => {
          // The handler writes to the raw response itself; fastify must not send anything.
          reply.hijack();
          handle(request.raw, reply.raw, request.body);
        },
      });
    }
  };
}
