/**
 * The fixture the watch tests over real sockets share: a Git remote holding `foo.yml`, a server on it with no
 * bus and no upstream checks of the watch's own (a push is noticed when a test asks), and the raw sockets a test
 * opens, destroyed with the rest by `stop()`.
 */
import { type Socket, connect } from 'node:net';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

export interface WatchGitServer {
  readonly remote: GitRemote;
  readonly server: TestServer;
  readonly port: number;
  /** Sockets a test opened: destroyed by stop(). */
  readonly sockets: Socket[];
  stop(): Promise<void>;
}

/** `settings` are added to (and may replace) the fixture's own. */
export async function startWatchGitServer(settings: Record<string, string>): Promise<WatchGitServer> {
  const remote = await createGitRemote();
  await remote.commit({ 'foo.yml': 'greeting: hello\n' });
  const server = await startGitTestServer({
    'spring.cloud.config.server.git.uri': remote.url,
    'spring.cloud.config.server.git.refresh-rate': '3600',
    'spring.cloud.bus.enabled': 'false',
    'confbus.watch.upstream-check-interval': '0',
    ...settings,
  });
  const sockets: Socket[] = [];
  return {
    remote,
    server,
    port: Number(new URL(server.base).port),
    sockets,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await server.stop();
      await remote.remove();
    },
  };
}

/** A watch stream opened on a raw socket: what the server wrote is seen byte for byte. */
export interface RawStream {
  readonly socket: Socket;
  /** Everything received so far, head included. */
  text(): string;
  readonly ended: Promise<void>;
}

/** Opens `GET /-/watch/foo/default` as an event stream; `then`: bytes written right after, on the same socket. */
export function openRaw(port: number, version: '1.1' | '1.0', then = ''): RawStream {
  const socket = connect({ host: '127.0.0.1', port });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => socket.once('end', resolve));
  socket.write(
    `GET /-/watch/foo/default HTTP/${version}\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n${then}`,
  );
  return { socket, text: () => received, ended };
}
