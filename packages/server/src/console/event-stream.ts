/**
 * Server-sent events for the console: a push, a webhook's refresh, an ack or a presence change reaches every open
 * console at once. Each message is a small notice (`event: ack`, `data: {...}`); the page re-reads the API for
 * details, so a missed message costs nothing but a stale view until the next one (and the page re-reads
 * everything when its stream reconnects). Open streams are bounded (confbus.console.max-event-streams).
 */
import type { ServerResponse } from 'node:http';
import { ConfbusError, type ConsoleEventType, type ConsoleEvents } from '@confbus/core';
import type { FastifyReply } from 'fastify';
import { serverErrors } from '../errors.js';

export interface EventStreamOptions {
  maxStreams: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
}

export class ConsoleEventStream {
  private readonly streams = new Set<ServerResponse>();
  private readonly heartbeat: NodeJS.Timeout;
  private nextId = 1;

  constructor(private readonly options: EventStreamOptions) {
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), options.heartbeatMs);
    this.heartbeat.unref();
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** Takes over the reply and keeps it open until the client leaves or the server closes. */
  open(reply: FastifyReply): void {
    if (this.streams.size >= this.options.maxStreams) {
      throw new ConfbusError(
        serverErrors.CONFBUS_CONSOLE_STREAMS_EXHAUSTED,
        `${this.options.maxStreams} console event streams are open (confbus.console.max-event-streams)`,
      );
    }
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    // How long the browser waits before reconnecting after the stream broke.
    response.write('retry: 2000\n\n');
    this.streams.add(response);
    response.on('close', () => this.streams.delete(response));
  }

  publish<T extends ConsoleEventType>(type: T, data: ConsoleEvents[T]): void {
    if (this.streams.size === 0) return;
    this.write(`id: ${this.nextId++}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends every stream, so the HTTP server can close. */
  close(): void {
    clearInterval(this.heartbeat);
    for (const response of this.streams) response.end();
    this.streams.clear();
  }

  private write(text: string): void {
    for (const response of this.streams) {
      // A client that does not read is dropped rather than buffered without bound.
      if (response.writableLength > 1_000_000) response.destroy();
      else response.write(text);
    }
  }
}
