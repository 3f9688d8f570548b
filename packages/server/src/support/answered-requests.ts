/**
 * Every answered request reported once to the sinks that count, time, log or audit requests (the metrics, the
 * access log, the audit trail), whoever answered it. Fastify's onResponse reports a reply fastify sent; a
 * response that outlives its reply reports itself. A stream (a watch stream, the console's events) hijacks its
 * reply and ends long after, where fastify no longer sees it: a client leaving never finishes a response, and a
 * watch stream that was handed its socket (watch/stream-socket.ts) has no response left to finish. So hijacking
 * is done here, by `takeOver`, which keeps the few facts the sinks need (not the request) until the stream's
 * `end`; onResponse skips a request taken over, so a response that does finish is not counted twice.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What the sinks are told of an answered request. */
export interface AnsweredRequest {
  readonly method: string;
  /** The route pattern (never the raw URL, so metric labels stay bounded), or `unmatched`. */
  readonly route: string;
  readonly url: string;
  readonly remote: string;
  /** The principal's name, or `anonymous`. */
  readonly principal: string;
  /** The route's own config, shared by its requests: what it declares (such as `audit`). */
  readonly config: FastifyContextConfig | undefined;
  /**
   * The route parameters and parsed body: what an audited route names its target from (a response taken over
   * from a route that is not audited keeps neither).
   */
  readonly params: unknown;
  readonly body: unknown;
  readonly status: number;
  /** From the request's arrival to the end of its response. */
  readonly ms: number;
}

export type AnsweredRequestSink = (answered: AnsweredRequest) => void;

export class AnsweredRequests {
  readonly #sinks: AnsweredRequestSink[] = [];
  /** Requests whose route reports their end itself (fastify's types do not say whether a reply was hijacked). */
  readonly #takenOver = new WeakSet<FastifyRequest>();

  constructor(
    app: FastifyInstance,
    private readonly principalOf: (request: FastifyRequest) => string,
  ) {
    // A callback hook: no promise per request on the hot path.
    app.addHook('onResponse', (request, reply, done) => {
      if (!this.#takenOver.has(request))
        this.report(new Answer(request, this.principalOf(request), reply.statusCode, reply.elapsedTime));
      done();
    });
  }

  /** `sink` is told of every request answered from now on. */
  add(sink: AnsweredRequestSink): void {
    this.#sinks.push(sink);
  }

  /** Hijacks `reply` (its route writes the response itself) and returns what reports its end, once. */
  takeOver(request: FastifyRequest, reply: FastifyReply): TakenOverResponse {
    const taken = new TakenOverResponse(request, this.principalOf(request), reply.elapsedTime, this);
    this.#takenOver.add(request);
    reply.hijack();
    return taken;
  }

  /** Tells every sink (a taken-over response's end calls it too). */
  report(answered: AnsweredRequest): void {
    for (const sink of this.#sinks) sink(answered);
  }
}

/** The facts of a request, taken from fastify's request (which is not kept). */
class Answer implements AnsweredRequest {
  readonly method: string;
  readonly route: string;
  readonly url: string;
  readonly remote: string;
  readonly config: FastifyContextConfig | undefined;
  readonly params: unknown;
  readonly body: unknown;

  constructor(
    request: FastifyRequest,
    readonly principal: string,
    public status: number,
    public ms: number,
    /** Kept for as long as the response is open: the parameters and body only when the route is audited. */
    kept = false,
  ) {
    const { config } = request.routeOptions;
    this.method = request.method;
    this.route = config?.url ?? 'unmatched';
    this.url = request.url;
    this.remote = request.ip;
    this.config = config;
    // Only an audited route's target is named from them (audit/install-audit.ts); a stream of any other route
    // does not hold them (a dictionary-mode object of a few hundred bytes) for as long as it is open.
    const named = !kept || config?.audit !== undefined;
    this.params = named ? request.params : undefined;
    this.body = named ? request.body : undefined;
  }
}

/**
 * A response its route ends itself: the request's facts, taken when it was taken over, reported by the first
 * `end`. One object of a few fields per stream, kept as long as the stream is open.
 */
export class TakenOverResponse extends Answer {
  /** When the request arrived (performance.now()); NaN once reported. */
  #arrivedAt: number;

  constructor(
    request: FastifyRequest,
    principal: string,
    elapsedMs: number,
    private readonly requests: AnsweredRequests,
  ) {
    super(request, principal, 0, 0, true);
    this.#arrivedAt = performance.now() - elapsedMs;
  }

  /** Reports the response as answered with `status`, now; later calls do nothing. */
  end(status: number): void {
    if (Number.isNaN(this.#arrivedAt)) return;
    this.status = status;
    this.ms = performance.now() - this.#arrivedAt;
    this.#arrivedAt = NaN;
    this.requests.report(this);
  }
}
