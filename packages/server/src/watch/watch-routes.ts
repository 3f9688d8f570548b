/**
 * The watch endpoints (docs/watch.md):
 *   GET  /-/watch/{application}/{profiles}[/{label}]?version=…   Accept: text/event-stream → server-sent events
 *   GET  /-/watch/{application}/{profiles}[/{label}]?version=…&wait=30s                  → long poll: 200 or 304
 *   either with &include=environment: a change carries the new environment (watch-deliveries.ts)
 *   POST /-/watch/acks {event, service, version, outcome, reason}                        → 202, recorded
 * Under `/-/`, where no application can be (a name starts with a letter or digit), like the console: at
 * `/watch/…` the stream took Spring's `GET /watch/{profiles}/{label}` from an application named `watch`.
 * Everything is checked (names as the environment endpoint checks them, the version, the wait, the bounds of
 * watch-admission.ts) before a stream is opened, so a refusal is a JSON error like any other endpoint's.
 */
import {
  type AckBusEvent,
  ConfbusError,
  createAckEvent,
  createRefreshEvent,
  refreshOutcome,
} from '@confbus/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_ACK_SERVICE_LENGTH, MAX_ACK_VERSION_LENGTH } from '../bus/refresh-tracker.js';
import { validateRequest } from '../serving/environment-controller.js';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import type { AnsweredRequests } from '../support/answered-requests.js';
import { serverErrors } from '../errors.js';
import type { ServerSecurity } from '../security/install-security.js';
import { type WatchAdmission, spreadRetryAfter } from './watch-admission.js';
import type { WatchHub } from './watch-hub.js';
import type { WatchLongPolls } from './watch-long-polls.js';
import type { WatchStreams } from './watch-streams.js';

export const WATCH_PATH = '/-/watch';
export const WATCH_ACKS_PATH = '/-/watch/acks';
/** A long poll without ?wait= waits this long (or max-wait, if shorter). */
export const DEFAULT_WAIT_MS = 30_000;

export interface WatchRoutesOptions {
  readonly hub: WatchHub;
  readonly streams: WatchStreams;
  readonly longPolls: WatchLongPolls;
  readonly admission: WatchAdmission;
  readonly maxWaitMs: number;
  /** spring.cloud.config.server.prefix: mounted beside the environment endpoints, so a client finds both. */
  readonly prefix: string;
  readonly maxProfiles: number;
  readonly validateProfiles: boolean;
  /** A watch is a read: the principal must be allowed the application (security's requireRead). */
  readonly security: ServerSecurity;
  /** Takes a stream's reply over from fastify: the stream reports its own end (support/answered-requests.ts). */
  readonly answered: AnsweredRequests;
  /** Where acks go: the refresh events (and the console's fleet view). */
  readonly acked: (ack: AckBusEvent) => void;
}

interface WatchParams {
  name: string;
  profiles: string;
  label?: string;
}

const VERSION = /^[\w.:+-]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerWatchRoutes(app: FastifyInstance, options: WatchRoutesOptions): void {
  const handler = (request: FastifyRequest<{ Params: WatchParams }>, reply: FastifyReply) =>
    watch(options, request, reply);
  const { prefix } = options;
  // Clients watch and ack: any authenticated caller, each watch checked against its applications.
  const config = { access: 'authenticated' as const };
  app.get<{ Params: WatchParams }>(`${prefix}${WATCH_PATH}/:name/:profiles`, { config }, handler);
  app.get<{ Params: WatchParams }>(`${prefix}${WATCH_PATH}/:name/:profiles/:label`, { config }, handler);
  app.post(`${prefix}${WATCH_ACKS_PATH}`, { bodyLimit: 4096, config }, async (request, reply) => {
    const ack = ackOf(request.body);
    // An instance speaks only for an application its caller may read: otherwise any client could fill another
    // application's refresh events and fleet view with acks (or rejections) of instances that do not exist.
    options.security.requireRead(request, {
      applications: applicationsOf(ack.originService),
      profiles: [],
      label: null,
    });
    options.acked(ack);
    return reply.code(202).send({ recorded: true });
  });
}

async function watch(
  options: WatchRoutesOptions,
  request: FastifyRequest<{ Params: WatchParams }>,
  reply: FastifyReply,
): Promise<unknown> {
  const { name, profiles, label } = request.params;
  const parsed = validateRequest({ name, profiles, label: label ?? null }, options.maxProfiles, {
    springRules: options.validateProfiles,
  });
  options.security.requireRead(request, parsed);
  const query = request.query as Record<string, string | undefined>;
  const stream = (request.headers.accept ?? '').includes('text/event-stream');
  // A reconnecting EventSource sends the last event's id: the version it has.
  const since = readVersion(stream ? (request.headers['last-event-id'] ?? query.version) : query.version);
  const waitMs = stream ? 0 : readWait(query.wait, options.maxWaitMs);
  // A repeated parameter arrives as a list.
  const wantsEnvironment = includesEnvironment(query.include as string | string[] | undefined);
  const user = options.security.enabled ? options.security.principalOf(request)?.name : undefined;
  const client = user === undefined ? request.ip : `${request.ip} ${user}`;
  let release: () => void;
  try {
    release = options.admission.admit(client);
  } catch (error) {
    if (error instanceof ConfbusError && error.status === 503)
      reply.header('retry-after', String(spreadRetryAfter()));
    throw error;
  }
  try {
    return stream
      ? await openStream(options, request, reply, { parsed, since, wantsEnvironment }, release)
      : await options.longPolls.wait(reply, parsed, since, waitMs, release, wantsEnvironment);
  } catch (error) {
    release();
    throw error;
  }
}

async function openStream(
  options: WatchRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  watch: { parsed: EnvironmentRequest; since: string | undefined; wantsEnvironment: boolean },
  release: () => void,
): Promise<FastifyReply> {
  const { parsed, since } = watch;
  const stream = options.streams.create(request.raw, reply.raw, request.ip, watch.wantsEnvironment);
  const subscription = await options.hub.subscribe(parsed, since, stream);
  stream.unsubscribe = subscription.unsubscribe;
  options.streams.open(stream, options.answered.takeOver(request, reply), release);
  if (subscription.missed) stream.deliver(subscription.missed);
  return reply;
}

function readVersion(value: string | string[] | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !VERSION.test(value))
    throw badRequest(
      'version (or Last-Event-ID) must be a config version: up to 128 letters, digits, . _ : + -',
    );
  return value;
}

/**
 * `?include=environment` (a comma list; repeated too): the watcher wants the new environment with a change.
 * Other items are ignored, so a newer client's additions do not break an older server's answer.
 */
export function includesEnvironment(value: string | string[] | undefined): boolean {
  if (value === undefined) return false;
  const items = Array.isArray(value) ? value : [value];
  return items.some((item) => item.split(',').some((part) => part.trim() === 'environment'));
}

/** `30s`, `1500ms`, `2m` or bare seconds; within 0..max-wait. */
export function readWait(value: string | undefined, maxWaitMs: number): number {
  if (value === undefined) return Math.min(DEFAULT_WAIT_MS, maxWaitMs);
  const match = /^(\d{1,7})(ms|s|m)?$/.exec(value);
  const unit = match?.[2] === 'ms' ? 1 : match?.[2] === 'm' ? 60_000 : 1000;
  const ms = match ? Number(match[1]) * unit : NaN;
  if (!(ms >= 0 && ms <= maxWaitMs))
    throw badRequest(
      `wait must be a duration such as 30s, 1500ms or 1m, at most ${maxWaitMs / 1000}s (confbus.watch.max-wait); got ${JSON.stringify(value.slice(0, 40))}`,
    );
  return ms;
}

function ackOf(body: unknown): AckBusEvent {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const { event, service, version } = fields;
  if (typeof event !== 'string' || !UUID.test(event))
    throw badRequest('ack.event must be the id (a UUID) of the watch change being acknowledged');
  if (typeof service !== 'string' || service === '' || service.length > MAX_ACK_SERVICE_LENGTH)
    throw badRequest(
      `ack.service must name the acknowledging instance (1..${MAX_ACK_SERVICE_LENGTH} characters)`,
    );
  if (version !== undefined && (typeof version !== 'string' || version.length > MAX_ACK_VERSION_LENGTH))
    throw badRequest(
      `ack.version, when given, must be the version now served (up to ${MAX_ACK_VERSION_LENGTH} characters)`,
    );
  // The change being acknowledged, as the refresh event it was recorded as (only its id and type count).
  const ack = createAckEvent(service, createRefreshEvent('watch', '**', Date.now(), event));
  // `outcome` (applied | rejected) and `reason` as in a bus ack: read by the same rule, ignored when malformed.
  return { ...ack, ...(version === undefined ? {} : { configVersion: version }), ...refreshOutcome(fields) };
}

/**
 * The applications a service id names: its first segment (`shop:prod:8080:9f2c…` → shop, as the client's and
 * Spring's default ids begin), several when `spring.application.name` lists several (`a,b`).
 */
function applicationsOf(service: string): string[] {
  return (service.split(':')[0] ?? '').split(',').map((name) => name.trim());
}

function badRequest(message: string): ConfbusError {
  return new ConfbusError(serverErrors.CONFBUS_WATCH_BAD_REQUEST, message);
}
