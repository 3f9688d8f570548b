// A TCP proxy on 127.0.0.1 in front of a test server (e.g. a git daemon) that can be told to
// - hang: new connections are accepted and never answered, like an upstream whose network went silent;
// - hold: the answers of open and new connections are kept back (connections stay open) until released;
// - throttle: answers flow at most at a given rate, like a slow link (a large clone that takes a while);
// - refuse: new connections are closed at once, like a broker that is down (clients reconnect at their pace).
import { type Socket, connect, createServer } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { listenOnLoopback } from './loopback.js';

export interface TcpProxyOptions {
  /** Rate of the server's answers in bytes per second (default unlimited). */
  bytesPerSecond?: number;
  /** Sees every byte a client sends, per connection (numbered from 1 in order of arrival). */
  onClientBytes?: (connection: number, chunk: Buffer) => void;
}

export interface TcpProxy {
  readonly port: number;
  /** true: new connections are accepted and left silent; false: forwarded again (held ones are closed). */
  hang(on: boolean): void;
  /** true: no answer bytes reach any client until hold(false); connections stay open meanwhile. */
  hold(on: boolean): void;
  /** true: new connections are closed as soon as they are accepted; false: forwarded again. */
  refuse(on: boolean): void;
  /** Answer bytes forwarded to clients so far. */
  readonly bytesForwarded: number;
  /** Drops every open connection (with hang(true): a network that went silent mid-connection). */
  cut(): void;
  stop(): Promise<void>;
}

/** The answers' state, shared by every connection: held or not, paced to a rate, bytes forwarded. */
interface Flow {
  held: boolean;
  /** Answers waiting for hold(false). */
  waiters: Set<() => void>;
  forwarded: number;
  rate?: number | undefined;
}

/** The server-to-client direction: paced to a rate, and stopped while held. */
class AnswerValve extends Transform {
  constructor(private readonly state: Flow) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const pass = () => {
      this.state.forwarded += chunk.length;
      this.push(chunk);
      const rate = this.state.rate;
      if (rate === undefined) done();
      else setTimeout(done, (chunk.length / rate) * 1000);
    };
    if (!this.state.held) pass();
    else this.state.waiters.add(pass);
  }
}

/** `targetPort`: one server, or several taken in turn per connection (a round-robin load balancer). */
export async function startTcpProxy(
  targetPort: number | readonly number[],
  options: TcpProxyOptions = {},
): Promise<TcpProxy> {
  const targets = typeof targetPort === 'number' ? [targetPort] : targetPort;
  let hanging = false;
  let refusing = false;
  const flow: Flow = { held: false, waiters: new Set(), forwarded: 0, rate: options.bytesPerSecond };
  const held = new Set<Socket>();
  const open = new Set<Socket>();
  let connections = 0;
  const server = createServer((client) => {
    client.on('error', () => undefined);
    if (refusing) {
      client.destroy();
      return;
    }
    open.add(client);
    client.on('close', () => open.delete(client));
    if (hanging) {
      held.add(client);
      return;
    }
    const connection = ++connections;
    const tap = options.onClientBytes;
    if (tap) client.on('data', (chunk: Buffer) => tap(connection, chunk));
    forward(client, targets[(connection - 1) % targets.length]!, flow);
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    get bytesForwarded() {
      return flow.forwarded;
    },
    hang(on) {
      hanging = on;
      if (!on) for (const socket of held) socket.destroy();
      if (!on) held.clear();
    },
    refuse(on) {
      refusing = on;
    },
    hold(on) {
      flow.held = on;
      if (on) return;
      const waiting = [...flow.waiters];
      flow.waiters.clear();
      for (const pass of waiting) pass();
    },
    cut() {
      for (const socket of open) socket.destroy();
      held.clear();
    },
    async stop() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Connects a client to the target: its bytes go straight through, the answers through the valve. */
function forward(client: Socket, targetPort: number, flow: Flow): void {
  const upstream = connect(targetPort, '127.0.0.1');
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  client.pipe(upstream);
  upstream.pipe(new AnswerValve(flow)).pipe(client);
}
