// Smart-HTTP git server for tests: `git http-backend` (CGI) behind a node:http shim on 127.0.0.1,
// with optional basic auth so credential handling can be tested end to end.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { basicAuthorization, listenOnLoopback } from './loopback.js';

export interface GitHttpServer {
  readonly port: number;
  /** http:// (https:// with `tls`) URL of `<projectRoot>/<repoName>`. */
  url(repoName: string): string;
  /** Authorization headers received, in order (to assert what the client sent). */
  readonly authorizations: (string | undefined)[];
  /** TCP connections accepted so far (to assert that a client keeps one alive). */
  readonly connections: number;
  stop(): Promise<void>;
}

export interface GitHttpOptions {
  /** Require these credentials (HTTP basic); requests without them get 401. */
  auth?: { username: string; password: string };
  /** Serve https with this key and certificate (PEM), e.g. from testkit tls-certificate.ts. */
  tls?: { key: string; cert: string };
}

export async function startGitHttpServer(
  projectRoot: string,
  options: GitHttpOptions = {},
): Promise<GitHttpServer> {
  const authorizations: (string | undefined)[] = [];
  const children = new Set<ChildProcess>();
  const expected = options.auth ? basicAuthorization(options.auth) : undefined;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    authorizations.push(req.headers.authorization);
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="confbus-test"' }).end();
      return;
    }
    const child = spawnHttpBackend(projectRoot, req, options.auth?.username ?? '');
    children.add(child);
    child.on('close', () => children.delete(child));
    req.pipe(child.stdin);
    child.stdin.on('error', () => {});
    relayCgiResponse(child, res);
  };

  const server = options.tls ? createHttpsServer(options.tls, handle) : createServer(handle);
  let connections = 0;
  server.on(options.tls ? 'secureConnection' : 'connection', () => connections++);
  const port = await listenOnLoopback(server);
  return {
    port,
    authorizations,
    get connections() {
      return connections;
    },
    url: (repoName) => `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/${repoName}`,
    async stop() {
      for (const child of children) child.kill('SIGKILL');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `git http-backend` for one request, with the CGI environment it reads the request from. */
function spawnHttpBackend(projectRoot: string, req: IncomingMessage, user: string) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  return spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      REMOTE_USER: user,
      REMOTE_ADDR: '127.0.0.1',
      SERVER_PROTOCOL: 'HTTP/1.1',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
}

/** The CGI response: headers up to a blank line (a `Status:` header sets the status), then the body streamed. */
function relayCgiResponse(child: ChildProcess, res: ServerResponse): void {
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const crlf = head.indexOf('\r\n\r\n');
    const lf = head.indexOf('\n\n');
    const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
    if (end < 0) return;
    const sep = end === crlf ? 4 : 2;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + sep));
  });
  child.stdout?.on('end', () => {
    if (!headersDone) res.writeHead(502);
    res.end();
  });
}
