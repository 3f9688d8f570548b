/**
 * A watch stream's connection once its head is written: the socket alone, handed over from node:http the way
 * node:http hands a socket to an 'upgrade' listener. Otherwise every open stream keeps node:http's whole
 * per-request machinery alive — the HTTP parser (native memory besides its JS object), IncomingMessage,
 * ServerResponse and its head string, the connection's bound listeners, fastify's request and reply — though
 * none of it serves a response that only ever writes more of its body: at 10,000 streams that was most of the
 * server's memory per watcher (docs/watch.md#memory-per-watcher: 10.5 -> 5.4 KB). Written by hand because
 * neither node:http nor fastify offers it (an SSE response is not an upgrade); the steps are the ones
 * node:http's own upgrade branch takes (lib/_http_server.js, onParserExecuteCommon), with its own freeParser.
 * When anything is not as expected (another Node, a pipelined request) the stream keeps its ServerResponse.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

/** What a stream writes to: a ServerResponse, or the socket it was handed over. Both are Writables. */
export interface StreamOutput {
  readonly writableLength: number;
  readonly writableNeedDrain: boolean;
  readonly destroyed: boolean;
  write(bytes: Buffer | string): boolean;
  destroy(): void;
  on(event: 'close', listener: () => void): unknown;
}

/** The socket of a handed-over stream; `chunked`: the head announced chunked transfer coding. */
export interface HandedOver {
  readonly socket: Socket;
  readonly chunked: boolean;
}

interface NodeParser {
  incoming: unknown;
}
interface HttpCommon {
  freeParser?: (parser: NodeParser, request: unknown, socket: Socket) => void;
}
type HttpSocket = Socket & { parser?: NodeParser | null; _httpMessage?: unknown };

// node:http's own module; present in every Node since 0.x, checked rather than trusted.
const { freeParser } = createRequire(import.meta.url)('_http_common') as HttpCommon;

/**
 * The listeners node:http's server puts on each connection (connectionListenerInternal), by name: the parser
 * feeds on 'data', the others answer its end, close, drain, error, timeout and flow control. Removed as its
 * upgrade branch removes them; any other listener (TLS's, ours) stays.
 */
const SERVER_LISTENERS: Record<string, readonly string[]> = {
  data: ['bound socketOnData'],
  end: ['bound socketOnEnd'],
  close: ['bound socketOnClose'],
  drain: ['bound socketOnDrain'],
  error: ['socketOnError'],
  timeout: ['socketOnTimeout'],
  resume: ['onSocketResume'],
  pause: ['onSocketPause'],
};

/**
 * Writes `response`'s head (and nothing else) and hands its socket over, releasing the request's objects and
 * the parser; undefined (nothing written) when that cannot be done safely — the caller then writes the head
 * through `response` as usual.
 */
export function handOver(
  request: IncomingMessage,
  response: ServerResponse,
  headers: Record<string, string>,
): HandedOver | undefined {
  const socket = request.socket as HttpSocket;
  const parser = socket.parser;
  if (freeParser === undefined || parser == null || parser.incoming !== request) return undefined;
  if (socket._httpMessage !== response || response.socket !== socket || !request.complete) return undefined;
  const found = serverListeners(socket);
  if (found === undefined) return undefined;
  response.writeHead(200, headers);
  // The head alone, through node:http: its Date, Connection and Transfer-Encoding, and any header set before.
  response.flushHeaders();
  const chunked = (response as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
  for (const [event, listener] of found) socket.removeListener(event, listener);
  response.detachSocket(socket);
  freeParser(parser, request, socket);
  // Ours from now on: a client's end or error closes the stream (node:http allows half-open connections).
  socket.on('error', ignoreError);
  socket.on('end', closeOnEnd);
  // Anything more the client sends is read and dropped, so its end is seen.
  socket.resume();
  return { socket, chunked };
}

function serverListeners(socket: Socket): Array<[string, (...args: unknown[]) => void]> | undefined {
  const found: Array<[string, (...args: unknown[]) => void]> = [];
  for (const [event, names] of Object.entries(SERVER_LISTENERS)) {
    for (const name of names) {
      const listener = socket.listeners(event).find((l) => l.name === name);
      if (listener === undefined) return undefined;
      found.push([event, listener as (...args: unknown[]) => void]);
    }
  }
  return found;
}

/** The socket's 'close' follows an error: that is where the stream is released. */
function ignoreError(): void {}

function closeOnEnd(this: Socket): void {
  this.destroy();
}

const CRLF = Buffer.from('\r\n');
const LAST_CHUNK = Buffer.from('0\r\n\r\n');
/** Each message framed once as an HTTP chunk, however many handed-over streams it is written to. */
const framed = new WeakMap<Buffer, Buffer>();

/** `bytes` as one HTTP/1.1 chunk: size in hex, CRLF, the bytes, CRLF. */
export function asChunk(bytes: Buffer): Buffer {
  let chunk = framed.get(bytes);
  if (chunk === undefined) {
    chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]);
    framed.set(bytes, chunk);
  }
  return chunk;
}

/**
 * Ends a handed-over stream as its ServerResponse would have: the last chunk, then the end of the socket. A
 * client that does not read it is cut after `graceMs`, as the shutdown cuts node:http's own connections then
 * (closeAllConnections no longer knows this socket).
 */
export function endHandedOver(socket: Socket, chunked: boolean, graceMs: number): void {
  if (chunked) socket.end(LAST_CHUNK);
  else socket.end();
  socket.setTimeout(graceMs, () => socket.destroy());
}
