// A TCP proxy on 127.0.0.1 in front of a test server (e.g. a git daemon) that can be told to hang: while
// hanging it accepts connections and never answers, like an upstream whose network went silent.
import { once } from 'node:events';
import { type Socket, connect, createServer } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** true: new connections are accepted and left silent; false: forwarded again (held ones are closed). */
  hang(on: boolean): void;
  stop(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let hanging = false;
  const held = new Set<Socket>();
  const open = new Set<Socket>();
  const server = createServer((client) => {
    client.on('error', () => undefined);
    open.add(client);
    client.on('close', () => open.delete(client));
    if (hanging) {
      held.add(client);
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    hang(on) {
      hanging = on;
      if (!on) for (const socket of held) socket.destroy();
      if (!on) held.clear();
    },
    async stop() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
