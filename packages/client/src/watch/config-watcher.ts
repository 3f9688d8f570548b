/**
 * The client's end of the watch stream (docs/watch.md): holds `GET /-/watch/…` open as server-sent events with
 * the version it serves, refreshes when told of a change — applying the environment the change carries as if
 * it had been fetched (`?include=environment`), or re-fetching (asking for at least the announced version)
 * when it carries none — and acks it over HTTP, so the server's refresh events and fleet view work with no
 * broker. When the stream breaks — a server restart, a proxy cutting it, nothing heard for idle-timeout — it reconnects after a
 * random delay below a ceiling that starts at reconnect-initial and doubles per failed attempt up to
 * reconnect-max ("full jitter": a fleet cut off at once comes back spread out), trying the next server URI
 * after a failure, and honouring a 503/429's Retry-After. Reconnecting with its version is the catch-up: the
 * server answers at once when that version is behind. A server without the endpoint (404: Spring, an older
 * confbus) ends the watching; the safety-net poll stays either way.
 */
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { type Environment, type Logger, parseJsonInOrder } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { WatchTarget } from '../fetch/environment-source.js';
import { parseEnvironment } from '../fetch/environment-json.js';
import { jsonFields } from '../fetch/json-members.js';
import { SseParser } from './sse-parser.js';
import type { ClientWatchSettings } from './watch-settings.js';
import { watchUrls } from './watch-urls.js';

/** A change as the server announces it (the server's watch-hub.ts WatchChange). */
export interface WatchChange {
  readonly event: string;
  readonly version: string;
  readonly keys: readonly string[] | null;
  /** The new environment, as the environment endpoint answers it; absent: re-fetch (too large, older server...). */
  readonly environment?: unknown;
}

/** How a change ended, in its ack (the server records it with the refresh events, as for a bus ack). */
type WatchAckOutcome = { outcome: 'applied' } | { outcome: 'rejected'; reason: string };

export interface WatchSource {
  watchTargets(): { targets: WatchTarget[]; agents: { http: HttpAgent; https: HttpsAgent } };
}

export interface WatchRefreshTarget {
  /** Refreshes to at least `version`. */
  refresh(version: string): Promise<unknown>;
  /** Applies an environment a change carried as if it had been fetched (the Refresher's applyDelivered). */
  apply(environment: Environment): Promise<unknown>;
  currentVersion(): string | null;
}

export interface ConfigWatcherOptions {
  readonly source: WatchSource;
  readonly settings: ClientWatchSettings;
  readonly target: WatchRefreshTarget;
  /** This instance's id in acks (its bus id shape: `app:profiles:port:random`). */
  readonly serviceId: string;
  readonly logger: Logger;
  readonly random?: () => number;
}

export type WatchState = 'stopped' | 'connecting' | 'open' | 'waiting' | 'unsupported';

export class ConfigWatcher {
  #state: WatchState = 'stopped';
  #request: ClientRequest | undefined;
  #timer: NodeJS.Timeout | undefined;
  #idle: NodeJS.Timeout | undefined;
  /** Failed attempts since the last stream that opened. */
  #failures = 0;
  #server = 0;
  #everOpened = false;
  /** Changes applied; read by tests and the bench. */
  #changes = 0;

  constructor(private readonly options: ConfigWatcherOptions) {}

  get state(): WatchState {
    return this.#state;
  }

  get changesApplied(): number {
    return this.#changes;
  }

  start(): void {
    if (this.#state !== 'stopped') return;
    this.#connect();
  }

  stop(): void {
    this.#state = 'stopped';
    clearTimeout(this.#timer);
    clearTimeout(this.#idle);
    this.#request?.destroy();
    this.#request = undefined;
  }

  #connect(): void {
    const { source, target, settings, logger } = this.options;
    const { targets, agents } = source.watchTargets();
    const server = targets[this.#server % Math.max(1, targets.length)];
    if (!server) {
      logger.warn({}, 'No config server URI to watch: changes arrive by the safety-net poll only');
      this.#state = 'unsupported';
      return;
    }
    this.#state = 'connecting';
    const { stream } = watchUrls(server.url, server.label);
    const version = target.currentVersion();
    if (version !== null) stream.searchParams.set('version', version);
    // Changes carry the environment (a server without the parameter ignores it: the client re-fetches).
    stream.searchParams.set('include', 'environment');
    // A fetch asks the first server first: only what that server sends is what a fetch would have got.
    const first = this.#server % targets.length === 0;
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      'cache-control': 'no-store',
      ...server.instanceHeaders,
    };
    if (server.authorization) headers.authorization = server.authorization;
    const https = stream.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    const request = send(stream, { headers, agent: https ? agents.https : agents.http });
    this.#request = request;
    this.#armIdle(request, settings.idleTimeout);
    request.on('response', (response) => this.#answered(request, response, server.shown, first));
    request.on('error', (error) => this.#broken(request, `${server.shown}: ${messageOf(error)}`));
    request.end();
  }

  #answered(request: ClientRequest, response: IncomingMessage, shown: string, first: boolean): void {
    const status = response.statusCode ?? 0;
    // A Spring server reads /-/watch/{app}/{profiles}[/{label}] as a request for an application named `-`: 404 or 406 (or JSON).
    const stream = (response.headers['content-type'] ?? '').startsWith('text/event-stream');
    if (status !== 200 || !stream) {
      response.resume();
      if (status === 404 || status === 406 || status === 200) {
        this.options.logger.warn(
          { server: shown },
          `The config server has no watch stream (GET /-/watch answered ${status}${stream ? '' : ', not an event stream'}): changes arrive by the safety-net poll only`,
        );
        this.stop();
        this.#state = 'unsupported';
        return;
      }
      const retryAfter = Number(response.headers['retry-after']);
      this.#broken(
        request,
        `${shown} answered ${status}`,
        Number.isFinite(retryAfter) ? retryAfter * 1000 : 0,
      );
      return;
    }
    this.#state = 'open';
    this.#failures = 0;
    if (!this.#everOpened)
      this.options.logger.info({ server: shown }, `Watching ${shown} for configuration changes`);
    this.#everOpened = true;
    const parser = new SseParser();
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.#armIdle(request, this.options.settings.idleTimeout);
      try {
        for (const message of parser.push(chunk))
          // As a fetch reads it: integers beyond 2^53 (Spring's BigInteger) to the last digit, sources in order.
          if (message.event === 'change')
            void this.#changed(
              (jsonFields(parseJsonInOrder(message.data)) ?? {}) as unknown as WatchChange,
              shown,
              first,
            );
      } catch (error) {
        request.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    });
    response.on('close', () => this.#broken(request, `${shown} closed the stream`));
  }

  async #changed(change: WatchChange, shown: string, first: boolean): Promise<void> {
    const { target, logger } = this.options;
    // As a bus ack says: applied, or rejected with the reason (its schemas refused the values, the re-fetch failed).
    let outcome: WatchAckOutcome = { outcome: 'applied' };
    try {
      const delivered = first ? this.#delivered(change, shown) : undefined;
      await (delivered ? target.apply(delivered) : target.refresh(change.version));
      this.#changes++;
    } catch (error) {
      // The refresh logged its own failure; the next change or the poll tries again.
      outcome = { outcome: 'rejected', reason: messageOf(error) };
    }
    await this.#ack(change, outcome).catch((error: unknown) =>
      logger.debug?.({ reason: messageOf(error) }, 'Watch change not acked'),
    );
  }

  /** The environment a change carries, when it is the announced version's; undefined: re-fetch. */
  #delivered(change: WatchChange, shown: string): Environment | undefined {
    if (change.environment === undefined) return undefined;
    try {
      const environment = parseEnvironment(change.environment, shown);
      return environment.version === change.version ? environment : undefined;
    } catch (error) {
      this.options.logger.warn(
        { reason: messageOf(error) },
        'A watch change carried an invalid environment: re-fetching',
      );
      return undefined;
    }
  }

  #ack(change: WatchChange, outcome: WatchAckOutcome): Promise<void> {
    const { source, target, serviceId } = this.options;
    const { targets, agents } = source.watchTargets();
    const server = targets[this.#server % Math.max(1, targets.length)];
    if (!server) return Promise.resolve();
    const { acks } = watchUrls(server.url, server.label);
    const version = target.currentVersion();
    const body = JSON.stringify({
      event: change.event,
      service: serviceId,
      ...(version ? { version } : {}),
      ...outcome,
    });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (server.authorization) headers.authorization = server.authorization;
    const https = acks.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(
        acks,
        { method: 'POST', headers, agent: https ? agents.https : agents.http },
        (res) => {
          res.resume();
          res.on('end', () =>
            (res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`ack answered ${res.statusCode}`)),
          );
        },
      );
      request.setTimeout(10_000, () => request.destroy(new Error('ack timed out')));
      request.on('error', reject);
      request.end(body);
    });
  }

  /** The stream is gone (or never came): reconnect after a jittered delay, unless stopped or already handled. */
  #broken(request: ClientRequest, why: string, retryAfterMs = 0): void {
    if (this.#request !== request || this.#state === 'stopped' || this.#state === 'unsupported') return;
    this.#request = undefined;
    clearTimeout(this.#idle);
    request.destroy();
    const { settings, logger } = this.options;
    const random = this.options.random ?? Math.random;
    // After a failed attempt try the next server; a stream that was open reconnects to the same one first.
    if (this.#state !== 'open') this.#server++;
    const ceiling = Math.min(settings.reconnectMax, settings.reconnectInitial * 2 ** this.#failures);
    this.#failures++;
    const delay = Math.max(retryAfterMs * (1 + random() / 2), Math.round(random() * ceiling));
    if (this.#failures === 1 || this.#failures % 10 === 0)
      logger.info({ delayMs: delay, failures: this.#failures }, `Watch stream broke (${why}); reconnecting`);
    this.#state = 'waiting';
    this.#timer = setTimeout(() => this.#connect(), delay);
    this.#timer.unref();
  }

  #armIdle(request: ClientRequest, timeout: number): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => request.destroy(new Error(`nothing received for ${timeout} ms`)), timeout);
    this.#idle.unref();
  }
}
