/**
 * A stand-in for the config server: a real node:http server on 127.0.0.1 that answers
 * `GET /{app}/{profiles}[/{label}]` with Spring environment JSON the test controls.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { writeJson } from '@confbus/core';

export interface StubPropertySource {
  name: string;
  source: Record<string, unknown>;
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
  const environments = new Map<string, StubEnvironment>();
  const requests: StubRequest[] = [];
  const sockets = new Set<Socket>();
  let failing: number | 'close' | null = null;
  let auth: string | null = null;

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stub').pathname;
    const segments = path
      .split('/')
      .filter((part) => part !== '')
      .map((part) => decodeURIComponent(part));
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', segments, headers: req.headers });
    if (failing === 'close') {
      req.socket.destroy();
      return;
    }
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      // As the real server writes it: bigints and JavaDoubles in a source come out as Jackson writes them.
      res.end(writeJson(body));
    };
    if (failing !== null) return send(failing, { status: failing, error: 'Stub failure' });
    if (auth !== null && req.headers.authorization !== auth) {
      return send(401, { status: 401, error: 'Unauthorized' });
    }
    const [app, profiles, label] = segments;
    if (req.method !== 'GET' || app === undefined || profiles === undefined || segments.length > 3) {
      return send(404, { status: 404, error: 'Not Found', path });
    }
    const env = environments.get(`${app}\u0000${profiles}`) ?? { propertySources: [] };
    send(200, {
      name: app,
      profiles: [profiles],
      label: label?.replaceAll('(_)', '/') ?? env.label ?? null,
      version: env.version ?? null,
      state: env.state ?? null,
      propertySources: env.propertySources,
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get requestCount() {
      return requests.length;
    },
    setEnvironment(app, profiles, env) {
      environments.set(`${app}\u0000${profiles}`, structuredClone(env));
    },
    setFailing(mode) {
      failing = mode;
    },
    requireBasicAuth(credentials) {
      auth =
        credentials === null
          ? null
          : `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
