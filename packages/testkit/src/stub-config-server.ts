/**
 * A stand-in for the config server: a real node:http server on 127.0.0.1 that answers
 * `GET /{app}/{profiles}[/{label}]` with Spring environment JSON the test controls.
 */
import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  createServer,
} from 'node:http';
import type { Socket } from 'node:net';
import { writeJson } from '@confbus/core';
import { basicAuthorization, listenOnLoopback } from './loopback.js';

export interface StubPropertySource {
  name: string;
  source: Record<string, unknown>;
  /** confbus's marker of the keys a decrypting server decrypted (see docs/encryption.md). */
  decryptedKeys?: string[];
}

export interface StubEnvironment {
  version?: string | null;
  state?: string | null;
  label?: string | null;
  /** Highest precedence first, as Spring sends them. */
  propertySources: StubPropertySource[];
}

export interface StubRequest {
  method: string;
  url: string;
  /** Decoded path segments: application, profiles and, when present, the label (with `(_)` still in it). */
  segments: string[];
  headers: IncomingHttpHeaders;
}

export interface StubConfigServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly requests: readonly StubRequest[];
  readonly requestCount: number;
  /** `profiles` is the comma list exactly as the client sends it, e.g. `dev,db`. */
  setEnvironment(app: string, profiles: string, env: StubEnvironment): void;
  /** Answer every request with this status, or drop the connection (`'close'`); `null` heals. */
  setFailing(mode: number | 'close' | null): void;
  /** Require HTTP Basic credentials (401 otherwise); `null` removes the requirement. */
  requireBasicAuth(credentials: { username: string; password: string } | null): void;
  stop(): Promise<void>;
}

export async function startStubConfigServer(): Promise<StubConfigServer> {
  const state: StubState = { environments: new Map(), requests: [], failing: null, auth: null };
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => answer(state, req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: state.requests,
    get requestCount() {
      return state.requests.length;
    },
    setEnvironment(app, profiles, env) {
      state.environments.set(`${app}\u0000${profiles}`, structuredClone(env));
    },
    setFailing(mode) {
      state.failing = mode;
    },
    requireBasicAuth(credentials) {
      state.auth = credentials === null ? null : basicAuthorization(credentials);
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the test set, and what the stub saw. */
interface StubState {
  /** By `<app>\0<profiles>`. */
  readonly environments: Map<string, StubEnvironment>;
  readonly requests: StubRequest[];
  failing: number | 'close' | null;
  /** The Authorization header required, if any. */
  auth: string | null;
}

/** Records the request, then answers as the test set the stub up: a failure, a 401, a 404 or the environment. */
function answer(state: StubState, req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://stub').pathname;
  const segments = path
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part));
  // Like a Spring server, the stub has no watch stream: confbus clients ask for it at start, then rely on the
  // safety-net poll. Not recorded, so the tests count the environment requests only.
  if (
    segments[0] === '-' &&
    segments[1] === 'watch' &&
    (req.headers.accept ?? '').includes('text/event-stream')
  ) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"error":"Not Found"}');
    return;
  }
  state.requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', segments, headers: req.headers });
  if (state.failing === 'close') {
    req.socket.destroy();
    return;
  }
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    // As the real server writes it: bigints and JavaDoubles in a source come out as Jackson writes them.
    res.end(writeJson(body));
  };
  if (state.failing !== null) return send(state.failing, { status: state.failing, error: 'Stub failure' });
  if (state.auth !== null && req.headers.authorization !== state.auth) {
    return send(401, { status: 401, error: 'Unauthorized' });
  }
  const [app, profiles, label] = segments;
  if (req.method !== 'GET' || app === undefined || profiles === undefined || segments.length > 3) {
    return send(404, { status: 404, error: 'Not Found', path });
  }
  const env = state.environments.get(`${app}\u0000${profiles}`) ?? { propertySources: [] };
  send(200, {
    name: app,
    profiles: [profiles],
    label: label?.replaceAll('(_)', '/') ?? env.label ?? null,
    version: env.version ?? null,
    state: env.state ?? null,
    propertySources: env.propertySources,
  });
}
