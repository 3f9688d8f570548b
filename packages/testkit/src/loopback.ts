/** What the testkit's servers (stub config server, git over HTTP, proxies) share: a loopback port, basic auth. */
import { once } from 'node:events';
import type { Server } from 'node:net';

/** Listens on a free port of 127.0.0.1; resolves to the port. */
export async function listenOnLoopback(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** The `Authorization` (or `Proxy-Authorization`) header value of HTTP basic auth. */
export function basicAuthorization(credentials: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
}
