// A forward HTTP proxy on 127.0.0.1 for tests: it forwards absolute-form requests (GET http://host/…) to
// their target and records what it saw, optionally requiring Proxy-Authorization (basic).
import { createServer, request } from 'node:http';
import { basicAuthorization, listenOnLoopback } from './loopback.js';

export interface HttpProxy {
  readonly port: number;
  /** Target URLs of the requests forwarded, in order. */
  readonly forwarded: string[];
  /** Proxy-Authorization headers received, in order. */
  readonly authorizations: (string | undefined)[];
  stop(): Promise<void>;
}

export async function startHttpProxy(auth?: { username: string; password: string }): Promise<HttpProxy> {
  const forwarded: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const expected = auth ? basicAuthorization(auth) : undefined;
  const server = createServer((req, res) => {
    authorizations.push(req.headers['proxy-authorization']);
    if (expected && req.headers['proxy-authorization'] !== expected) {
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="confbus-test-proxy"' }).end();
      return;
    }
    const target = new URL(req.url ?? '/');
    forwarded.push(target.href);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = request(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    forwarded,
    authorizations,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
