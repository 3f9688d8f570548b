/**
 * Server-sent events for the console: a push, a webhook's refresh, an ack or a presence change reaches every open
 * console at once. Each message is a small notice (`event: ack`, `data: {...}`); the page re-reads the API for
 * details, so a missed message costs nothing but a stale view until the next one (and the page re-reads
 * everything when its stream reconnects).
 *
 * A stream holds a slot until its client leaves, so the slots are bounded three ways: in all
 * (confbus.console.max-event-streams, 503 beyond), per client (confbus.console.max-event-streams-per-client,
 * 429 beyond: one client cannot take every slot), and by reading: a stream whose client does not take what is
 * sent (more than maxBufferedBytes waiting, or no drain for drainTimeoutMs) is dropped, freeing its slot. A
 * browser's EventSource reconnects by itself and re-reads, so dropping a slow reader loses nothing.
 */
import type { ServerResponse } from 'node:http';
import { ConfbusError, type ConsoleEventType, type ConsoleEvents, type Logger } from '@confbus/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serverErrors } from '../errors.js';
import type { AnsweredRequests, TakenOverResponse } from '../support/answered-requests.js';

export interface EventStreamOptions {
  maxStreams: number;
  maxStreamsPerClient: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** Bytes a stream may have waiting for its client before it is dropped. */
  maxBufferedBytes: number;
  /** How long a stream may stay full (its client not reading) before it is dropped. */
  drainTimeoutMs: number;
  /** Takes a stream's reply over from fastify: the stream reports its own end (support/answered-requests.ts). */
  answered: AnsweredRequests;
  logger: Logger;
}

interface OpenStream {
  readonly response: ServerResponse;
  /** Whom the per-client bound counts it against. */
  readonly client: string;
  /** The source address, for the log (never the user name). */
  readonly address: string;
  /** Set while the stream is full: drops it unless it drains first. */
  stalled?: NodeJS.Timeout;
  /** Its request, reported answered when the stream ends. */
  readonly answer: TakenOverResponse;
}

export class ConsoleEventStream {
  private readonly streams = new Set<OpenStream>();
  private readonly perClient = new Map<string, number>();
  private readonly heartbeat: NodeJS.Timeout;
  private nextId = 1;

  constructor(private readonly options: EventStreamOptions) {
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), options.heartbeatMs);
    this.heartbeat.unref();
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /**
   * Takes over the reply and keeps it open until the client leaves, is dropped, or the server closes. A client is
   * its source address and, with basic auth on, the user it authenticated as.
   */
  open(request: FastifyRequest, reply: FastifyReply, user?: string): void {
    const address = request.ip;
    const client = user === undefined ? address : `${address} ${user}`;
    this.checkBounds(client);
    const answer = this.options.answered.takeOver(request, reply);
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    const stream: OpenStream = { response, client, address, answer };
    this.streams.add(stream);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    response.on('close', () => this.forget(stream));
    response.on('drain', () => {
      clearTimeout(stream.stalled);
      stream.stalled = undefined;
    });
    // How long the browser waits before reconnecting after the stream broke.
    this.send(stream, 'retry: 2000\n\n');
  }

  publish<T extends ConsoleEventType>(type: T, data: ConsoleEvents[T]): void {
    if (this.streams.size === 0) return;
    this.write(`id: ${this.nextId++}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends every stream, so the HTTP server can close; each is reported answered now. */
  close(): void {
    clearInterval(this.heartbeat);
    for (const stream of this.streams) {
      clearTimeout(stream.stalled);
      stream.response.end();
      stream.answer.end(200);
    }
    this.streams.clear();
    this.perClient.clear();
  }

  private checkBounds(client: string): void {
    const { maxStreams, maxStreamsPerClient } = this.options;
    if (this.streams.size >= maxStreams)
      throw new ConfbusError(
        serverErrors.CONFBUS_CONSOLE_STREAMS_EXHAUSTED,
        `${maxStreams} console event streams are open (confbus.console.max-event-streams)`,
      );
    if ((this.perClient.get(client) ?? 0) >= maxStreamsPerClient)
      throw new ConfbusError(
        serverErrors.CONFBUS_CONSOLE_CLIENT_STREAMS,
        `This client already has ${maxStreamsPerClient} console event streams open ` +
          '(confbus.console.max-event-streams-per-client); close a console tab and retry',
      );
  }

  private write(text: string): void {
    for (const stream of this.streams) this.send(stream, text);
  }

  /** Writes unless the client has stopped taking what it is sent; then the stream is dropped. */
  private send(stream: OpenStream, text: string): void {
    const { response } = stream;
    if (response.writableLength + text.length > this.options.maxBufferedBytes) {
      this.drop(stream, `more than ${this.options.maxBufferedBytes} bytes waiting for it`);
      return;
    }
    if (response.write(text) || stream.stalled) return;
    stream.stalled = setTimeout(
      () => this.drop(stream, `not read for ${this.options.drainTimeoutMs} ms`),
      this.options.drainTimeoutMs,
    );
    stream.stalled.unref();
  }

  private drop(stream: OpenStream, why: string): void {
    this.options.logger.warn(
      { client: stream.address },
      `Dropped a console event stream whose client does not read it (${why})`,
    );
    this.forget(stream);
    stream.response.destroy();
  }

  private forget(stream: OpenStream): void {
    if (!this.streams.delete(stream)) return;
    clearTimeout(stream.stalled);
    stream.answer.end(200);
    const left = (this.perClient.get(stream.client) ?? 1) - 1;
    if (left > 0) this.perClient.set(stream.client, left);
    else this.perClient.delete(stream.client);
  }
}
