/**
 * The server-sent-event side of watching: each stream is a watcher of its topic, sent `change` events and,
 * while idle, a heartbeat comment every confbus.watch.heartbeat-interval so proxies and load balancers keep
 * it open. A stream whose client does not read is dropped — more than max-buffered-bytes waiting for it, or
 * full for drain-timeout — so it holds no memory and delays nobody; the client reconnects with its last
 * version and catches up. One timer for all streams, no per-stream closures beyond the close listener: a
 * watcher costs its socket and this small object (bench/watch-bench.mjs measures it).
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from '@confbus/core';
import type { Watcher } from './watch-hub.js';
import { type Delivery, renderingFor } from './watch-deliveries.js';

export interface WatchStreamOptions {
  readonly heartbeatMs: number;
  readonly maxBufferedBytes: number;
  readonly drainTimeoutMs: number;
  /** How long an EventSource waits before reconnecting (the SSE `retry:` field), before its own jitter. */
  readonly retryMs: number;
  readonly logger: Logger;
}

const HEARTBEAT = Buffer.from(': heartbeat\n\n');

class WatchStream implements Watcher {
  /** Since when the stream has been full (0: it is not). */
  fullSince = 0;
  /** A change delivered before the head was written (between subscribing and opening): sent on opening. */
  early: Buffer | undefined;
  unsubscribe: () => void = () => undefined;

  constructor(
    readonly response: ServerResponse,
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

  constructor(private readonly options: WatchStreamOptions) {
    this.#heartbeat = setInterval(() => this.#beat(), options.heartbeatMs);
    this.#heartbeat.unref();
  }

  get openStreams(): number {
    return this.#streams.size;
  }

  /** The watcher of a stream not opened yet: subscribe it, then `open` it. */
  create(response: ServerResponse, address: string, wantsEnvironment: boolean): WatchStream {
    return new WatchStream(response, address, this, wantsEnvironment);
  }

  /** Writes the head (and what was delivered meanwhile); the stream is kept until its connection closes. */
  open(stream: WatchStream, release: () => void): void {
    const { response } = stream;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    response.write(`retry: ${this.options.retryMs}\n\n`);
    this.#streams.add(stream);
    if (stream.early !== undefined) this.send(stream, stream.early);
    response.once('close', () => {
      this.#streams.delete(stream);
      stream.unsubscribe();
      release();
    });
  }

  /** Writes unless the client has stopped taking what it is sent; then the stream is dropped. */
  send(stream: WatchStream, bytes: Buffer): void {
    const { response } = stream;
    if (!this.#streams.has(stream)) {
      if (!response.headersSent) stream.early = bytes;
      return;
    }
    if (response.destroyed) return;
    // What still waits from before, not this message: a reading client always gets a change however large.
    if (response.writableLength > this.options.maxBufferedBytes) {
      this.#drop(stream, `more than ${this.options.maxBufferedBytes} bytes waiting for it`);
      return;
    }
    if (response.write(bytes)) stream.fullSince = 0;
    else if (stream.fullSince === 0) stream.fullSince = performance.now();
  }

  /** Ends every stream, so the HTTP server can close. */
  close(): void {
    clearInterval(this.#heartbeat);
    for (const stream of this.#streams) stream.response.end();
    this.#streams.clear();
  }

  #beat(): void {
    const now = performance.now();
    for (const stream of this.#streams) {
      // Full since before the last beat and still not drained: the time bound.
      if (stream.fullSince !== 0 && stream.response.writableNeedDrain) {
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
    stream.response.destroy();
  }
}

export type { WatchStream };
