/**
 * The server-sent-event side of watching: each stream is a watcher of its topic, sent `change` events and,
 * while idle, a heartbeat comment every confbus.watch.heartbeat-interval so proxies and load balancers keep
 * it open. A stream whose client does not read is dropped — more than max-buffered-bytes waiting for it, or
 * full for drain-timeout — so it holds no memory and delays nobody; the client reconnects with its last
 * version and catches up. One timer for all streams, no per-stream closures beyond the close listener; once
 * its head is written a stream keeps its socket alone, handed over from node:http (stream-socket.ts): a
 * watcher costs its socket, this small object and the few facts its end is reported with (bench/watch-bench.mjs
 * measures it). Whoever ends a stream, it is reported answered once, to the sinks fastify's requests go to.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '@confbus/core';
import type { TakenOverResponse } from '../support/answered-requests.js';
import type { Watcher } from './watch-hub.js';
import { type Delivery, renderingFor } from './watch-deliveries.js';
import { REQUEST_GRACE_MS } from '../shutdown-deadline.js';
import { type StreamOutput, asChunk, endHandedOver, handOver } from './stream-socket.js';

export interface WatchStreamOptions {
  readonly heartbeatMs: number;
  readonly maxBufferedBytes: number;
  readonly drainTimeoutMs: number;
  /** How long an EventSource waits before reconnecting (the SSE `retry:` field), before its own jitter. */
  readonly retryMs: number;
  readonly logger: Logger;
}

const HEARTBEAT = Buffer.from(': heartbeat\n\n');

const HEAD = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
};

class WatchStream implements Watcher {
  /** Since when the stream has been full (0: it is not). */
  fullSince = 0;
  /** A change delivered before the head was written (between subscribing and opening): sent on opening. */
  early: Buffer | undefined;
  unsubscribe: () => void = () => undefined;
  /** Its connection closed: unsubscribed and released (once). */
  closed = false;
  /** The request as fastify's hooks would have reported it: reported when the stream ends (once). */
  answer: TakenOverResponse | undefined;
  /** Where the stream writes once open: its socket, handed over, or else its ServerResponse. */
  output: StreamOutput | undefined;
  /**
   * How writes are framed: by the ServerResponse (`response`), here as chunks (a handed-over socket whose head
   * announced chunked coding), or not at all (a handed-over HTTP/1.0 stream, which ends with its connection).
   */
  framing: 'response' | 'chunked' | 'raw' = 'response';

  constructor(
    /** The request and its response until the stream is open; then only `output` is kept. */
    public opening: { request: IncomingMessage; response: ServerResponse } | undefined,
    readonly address: string,
    private readonly streams: WatchStreams,
    /** `?include=environment`: sent the new environment with a change when there is one to send. */
    readonly wantsEnvironment: boolean,
  ) {}

  deliver(delivery: Delivery): void {
    this.streams.send(this, renderingFor(delivery, this.wantsEnvironment).sse);
  }
}

export class WatchStreams {
  readonly #streams = new Set<WatchStream>();
  readonly #heartbeat: NodeJS.Timeout;
  /** The SSE `retry:` field, written first on every stream. */
  readonly #retry: Buffer;

  constructor(private readonly options: WatchStreamOptions) {
    this.#heartbeat = setInterval(() => this.#beat(), options.heartbeatMs);
    this.#heartbeat.unref();
    this.#retry = Buffer.from(`retry: ${options.retryMs}\n\n`);
  }

  get openStreams(): number {
    return this.#streams.size;
  }

  /** Open streams holding their socket alone (stream-socket.ts); the others kept their ServerResponse. */
  get handedOverStreams(): number {
    let count = 0;
    for (const stream of this.#streams) if (stream.framing !== 'response') count++;
    return count;
  }

  /** The watcher of a stream not opened yet: subscribe it, then `open` it. */
  create(
    request: IncomingMessage,
    response: ServerResponse,
    address: string,
    wantsEnvironment: boolean,
  ): WatchStream {
    return new WatchStream({ request, response }, address, this, wantsEnvironment);
  }

  /**
   * Writes the head (and what was delivered meanwhile); the stream is kept until its connection closes. `answer`:
   * its request, taken over from fastify, reported when the stream ends.
   */
  open(stream: WatchStream, answer: TakenOverResponse, release: () => void): void {
    const { request, response } = stream.opening!;
    stream.opening = undefined;
    stream.answer = answer;
    const handed = handOver(request, response, HEAD);
    if (handed) {
      stream.output = handed.socket;
      stream.framing = handed.chunked ? 'chunked' : 'raw';
    } else {
      response.writeHead(200, HEAD);
      stream.output = response;
    }
    this.#streams.add(stream);
    this.send(stream, this.#retry);
    if (stream.early !== undefined) this.send(stream, stream.early);
    stream.early = undefined;
    const closed = () => {
      if (stream.closed) return;
      stream.closed = true;
      this.#streams.delete(stream);
      stream.unsubscribe();
      release();
      stream.answer?.end(200);
    };
    // `on`, not `once`: 'close' comes once, and `once` would add a wrapper per stream.
    stream.output.on('close', closed);
    // The client left while the stream was being opened: its 'close' may have been emitted already.
    if (stream.output.destroyed) closed();
  }

  /** Writes unless the client has stopped taking what it is sent; then the stream is dropped. */
  send(stream: WatchStream, bytes: Buffer): void {
    const { output } = stream;
    if (output === undefined || !this.#streams.has(stream)) {
      if (output === undefined) stream.early = bytes;
      return;
    }
    if (output.destroyed) return;
    // What still waits from before, not this message: a reading client always gets a change however large.
    if (output.writableLength > this.options.maxBufferedBytes) {
      this.#drop(stream, `more than ${this.options.maxBufferedBytes} bytes waiting for it`);
      return;
    }
    if (output.write(stream.framing === 'chunked' ? asChunk(bytes) : bytes)) stream.fullSince = 0;
    else if (stream.fullSince === 0) stream.fullSince = performance.now();
  }

  /**
   * Ends every stream, so the HTTP server can close: each is reported answered now, not when its client has
   * closed its side (after the server has, maybe).
   */
  close(): void {
    clearInterval(this.#heartbeat);
    for (const { output, framing, answer } of this.#streams) {
      if (framing === 'response') (output as ServerResponse).end();
      else endHandedOver(output as Socket, framing === 'chunked', REQUEST_GRACE_MS);
      answer?.end(200);
    }
    this.#streams.clear();
  }

  #beat(): void {
    const now = performance.now();
    for (const stream of this.#streams) {
      // Full since before the last beat and still not drained: the time bound.
      if (stream.fullSince !== 0 && stream.output?.writableNeedDrain) {
        if (now - stream.fullSince >= this.options.drainTimeoutMs) {
          this.#drop(stream, `not read for ${this.options.drainTimeoutMs} ms`);
          continue;
        }
      } else stream.fullSince = 0;
      this.send(stream, HEARTBEAT);
    }
  }

  #drop(stream: WatchStream, why: string): void {
    this.options.logger.warn(
      { client: stream.address },
      `Dropped a watch stream whose client does not read it (${why})`,
    );
    stream.output?.destroy();
  }
}

export type { WatchStream };
