/**
 * A fast path in front of fastify for the one request a config server answers all day: the same
 * `GET /{application}/{profiles}[/{label}]` URL it has answered before. Fastify's per-request work (routing,
 * hooks, reply object) cost about a third of a cache hit in the cached-mode profile, so a URL that fastify already
 * validated and answered with 200 is remembered here and answered straight from the environment cache:
 * same freshness (the repository is asked for the label's commit exactly as before), same bytes and headers. When
 * the repository knows the label's commit without an upstream check being due, a cache hit is written synchronously.
 * Anything else — a new URL, another method, a query string, an error — goes through fastify. With credentials
 * configured, a request is answered here only when its Authorization header was verified before and its principal
 * may read the URL (security's RememberedReadAccess: the check the route makes); otherwise fastify answers it
 * (verifies the credentials, refuses with 401/403/429).
 * Only the request is remembered, never the environment: that stays in the environment cache, whose byte bound
 * (confbus.server.cache.max-bytes) would mean nothing if 2,000 remembered URLs kept evicted environments alive.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROLLOUT_HEADER } from '@confbus/core';
import { environmentHeaders, wantsOrigins } from '../environment/environment-response.js';
import { type EnvironmentRequest, withVersionHint } from '../environment/environment-service.js';
import type { EnvironmentFinder, FoundEnvironment } from '../environment/environment-finder.js';
import { LruCache } from '../support/lru-cache.js';
import { readVersionHint } from '../environment/version-hint.js';
import type { RememberedReadAccess } from '../security/install-security.js';
import { type CommitChoice, chosenRequest } from './commit-choice.js';

export interface FastPathObserver {
  /**
   * What counts a request answered here (200 on `route`), as fastify's onResponse hook would; asked for once per
   * URL remembered, so that a request pays no label lookup.
   */
  recorderFor(route: string): (seconds: number) => void;
}

/**
 * The headers last written for a URL, reused while what they say is unchanged: the commit, staleness, the head held
 * back, media type and body length are all environmentHeaders and content-length depend on.
 */
interface WrittenHeaders {
  commit: string;
  stale: boolean;
  heldHead: string | undefined;
  v2: boolean;
  length: number;
  headers: Record<string, string>;
}

interface KnownUrl {
  request: EnvironmentRequest;
  record: (seconds: number) => void;
  written?: WrittenHeaders;
}

export class RepeatRequestFastPath {
  private readonly known = new LruCache<string, KnownUrl>(2000);
  /** Requests answered here, for tests and metrics. */
  served = 0;
  /** Of those, the ones written at once (no upstream check due, a cache hit), for tests. */
  servedAtOnce = 0;

  private access: RememberedReadAccess | undefined;

  constructor(
    private readonly service: EnvironmentFinder,
    private readonly observer: FastPathObserver,
    /** Credentials are configured: nothing is answered here until guardWith gave the access check. */
    private readonly guarded = false,
    /** Who else decides the commit (a staged rollout): asked per request after the access check. */
    private readonly choice?: CommitChoice,
  ) {}

  /** The security feature's read check for remembered credentials (undefined: no credentials configured). */
  guardWith(access: RememberedReadAccess | undefined): void {
    this.access = access;
  }

  /** The environment route calls this after answering `url` with 200. */
  remember(url: string, request: EnvironmentRequest, route: string): void {
    if (!url.includes('?')) this.known.set(url, { request, record: this.observer.recorderFor(route) });
  }

  /**
   * Answers the request if it is a known URL; returns false (and touches nothing) otherwise. When answering
   * fails on the way (the label vanished, the repository broke), the request is handed to `fallback`, which
   * produces the proper error.
   */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    fallback: (req: IncomingMessage, res: ServerResponse) => void,
  ): boolean {
    if (req.method !== 'GET' || req.url === undefined) return false;
    const entry = this.known.get(req.url);
    if (!entry) return false;
    if (this.guarded && this.access?.mayRead(req.headers.authorization, entry.request) !== true) return false;
    // A malformed version hint goes through fastify, which answers 400 naming the header.
    const hint = readVersionHint(req.headers);
    if (hint === null) return false;
    const started = performance.now();
    const chosen = chosenRequest(this.choice, entry.request, req.headers);
    // As the environment route: a request a rollout answered tells the client to report (ROLLOUT_HEADER).
    if (chosen !== entry.request) res.setHeader(ROLLOUT_HEADER, 'report');
    const request = withVersionHint(chosen, hint);
    // A cache hit with no upstream check due (refresh-rate > 0, or a hint already at the label's head) is written
    // at once: a promise chain per request cost more than the rest of the fast path (cached-mode profile).
    let now: FoundEnvironment | undefined;
    try {
      now = this.service.findNow?.(request);
    } catch {
      now = undefined; // find() below answers, or hands the error to fastify
    }
    const body = now?.resolved.bodyNow(req.headers.accept);
    if (now !== undefined && body !== undefined) {
      this.servedAtOnce++;
      this.answer(req, res, entry, now, body, started);
      return true;
    }
    // Not a cache hit known at once, or a large environment whose body is still to be built (in slices).
    const failed = (): void => {
      this.known.delete(req.url as string);
      fallback(req, res);
    };
    (now === undefined ? this.service.find(request) : Promise.resolve(now)).then(
      (found) =>
        found.resolved
          .body(req.headers.accept)
          .then((built) => this.answer(req, res, entry, found, built, started), failed),
      failed,
    );
    return true;
  }

  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    entry: KnownUrl,
    found: FoundEnvironment,
    body: Buffer,
    started: number,
  ): void {
    const accept = req.headers.accept;
    res.writeHead(200, headersFor(entry, found, accept, body.length));
    res.end(body);
    this.served++;
    entry.record((performance.now() - started) / 1000);
  }
}

/**
 * The controller's headers (environmentHeaders) for this answer, built once per revision, media type and length
 * rather than per request: node:http writes a headers object it is given without copying it.
 */
function headersFor(
  entry: KnownUrl,
  { revision }: FoundEnvironment,
  accept: string | undefined,
  length: number,
): Record<string, string> {
  const v2 = wantsOrigins(accept);
  const written = entry.written;
  if (
    written !== undefined &&
    written.commit === revision.commit &&
    written.stale === revision.stale &&
    written.heldHead === revision.heldHead &&
    written.v2 === v2 &&
    written.length === length
  )
    return written.headers;
  const headers = { ...environmentHeaders(accept, revision), 'content-length': String(length) };
  entry.written = {
    commit: revision.commit,
    stale: revision.stale,
    heldHead: revision.heldHead,
    v2,
    length,
    headers,
  };
  return headers;
}
