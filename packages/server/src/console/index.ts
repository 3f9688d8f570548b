/**
 * The operator console: its JSON API and server-sent events under /-/console/api/, its page under /-/console/.
 * `OperatorConsole` builds the console's own state (fleet, pushes, event streams); the composition root tells it
 * what happens elsewhere (upstream checks, bus events, refreshes published by /monitor).
 */
import { randomBytes } from 'node:crypto';
import type { BusNode } from '@confbus/bus';
import {
  type AckBusEvent,
  type BusEvent,
  ConfbusError,
  type Logger,
  type RefreshBusEvent,
  createPresenceRequest,
  readPresenceAnnouncement,
} from '@confbus/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RefreshTracker } from '../bus/refresh-tracker.js';
import { serverErrors } from '../errors.js';
import type { RepositoryRouter } from '../repositories/repository-router.js';
import { registerActionRoutes } from './action-routes.js';
import { registerAuditRoutes } from './audit-routes.js';
import { registerHoldRoutes } from './hold-routes.js';
import { registerConsoleRolloutRoutes } from './rollout-routes.js';
import type { RolloutStatusChange, RolloutsFeature } from '../rollouts/index.js';
import type { HoldOperations } from '../gate/hold-operations.js';
import type { AuditTrail } from '../audit/index.js';
import type { AnsweredRequests } from '../support/answered-requests.js';
import type { Principal } from '../security/principal.js';
import { AllowedHosts } from './allowed-hosts.js';
import { ApplicationCatalogue } from './application-catalogue.js';
import { consoleAssetsDir } from '@confbus/console';
import { registerConsoleAssets } from './console-assets.js';
import {
  CONSOLE_PATH,
  type ConsoleContext,
  type ConsoleRepository,
  isConsoleRepository,
} from './console-context.js';
import type { ParsedFiles } from '../environment/parsed-files.js';
import { registerEnvironmentRoutes } from './environment-routes.js';
import { ConsoleEventStream } from './event-stream.js';
import { FleetRegistry } from './fleet-registry.js';
import { registerFleetRoutes } from './fleet-routes.js';
import { PushLog } from './push-log.js';
import { registerRepositoryRoutes } from './repository-routes.js';

export { CONSOLE_API, CONSOLE_PATH } from './console-context.js';

/**
 * Reserves every path under `/-/` for confbus's own pages, whether the console is on or not: an unknown one is a
 * plain 404, never an environment request for an application named `-` (which cannot exist anyway).
 */
export function reserveConsolePrefix(app: FastifyInstance): void {
  app.all('/-/*', (_request, reply) => reply.callNotFound());
}

/**
 * The console is on but cannot work here (see consoleUnavailableReason): its page and API answer 404 saying why,
 * rather than a bare "no endpoint".
 */
export function registerConsoleUnavailable(app: FastifyInstance, reason: string): void {
  const unavailable = async () => {
    throw new ConfbusError(serverErrors.CONFBUS_CONSOLE_UNAVAILABLE, reason);
  };
  app.all(CONSOLE_PATH, unavailable);
  app.all(`${CONSOLE_PATH}/*`, unavailable);
}

/**
 * Why the console cannot work with this default repository, or undefined when it can. Its labels, applications,
 * history and pushes are those of one Git repository: the native backend has no history, and a default uri
 * with placeholders is a different repository per application, none of them the default.
 */
export function consoleUnavailableReason(
  repositories: RepositoryRouter,
  /** spring.profiles.active=native: named in the reason. */
  native: boolean,
): string | undefined {
  const mirror = repositories.defaultRepository?.mirror;
  if (isConsoleRepository(mirror)) return undefined;
  return mirror === undefined
    ? 'The operator console needs a default Git repository without placeholders: spring.cloud.config.server.git.uri ' +
        'has {application}, {profile} or {label}, so each application has its own repository and none is the ' +
        'default one the console lists (the environment endpoints serve as usual)'
    : `The operator console needs a Git repository: ${
        native ? 'the native backend (spring.profiles.active=native)' : 'this default repository'
      } has no labels or history to show (the environment endpoints serve as usual)`;
}

export interface ConsoleOptions {
  /** Every repository served; environments are read through it, as the environment endpoint reads them. */
  repositories: RepositoryRouter;
  /** The default repository (labels, applications, history, pushes). */
  mirror: ConsoleRepository;
  tracker: RefreshTracker;
  /** The default repository's search paths (its application catalogue). */
  searchPaths: readonly string[];
  maxProfiles: number;
  busEnabled: boolean;
  authEnabled: boolean;
  /** Who a request acts as (the security feature's principal; undefined on an open route). */
  principalOf: (request: FastifyRequest) => Principal | undefined;
  /** The audit trail, whose recent entries the console lists; undefined when the audit log is off. */
  audit: AuditTrail | undefined;
  /** Takes the event streams' replies over from fastify; each reports its end. */
  answered: AnsweredRequests;
  /** The contract gate's holds, listed and released from the console; undefined without a gate. */
  holds: HoldOperations | undefined;
  /** The staged rollouts, listed and moved from the console; undefined when they are off. */
  rollouts: Pick<RolloutsFeature, 'engine' | 'start'> | undefined;
  /** Upstream checks while a console is open, so a push shows without a webhook; 0 = none. */
  watchIntervalSeconds: number;
  /** Presence requests on the bus; an instance silent for three intervals leaves the fleet. */
  presenceIntervalSeconds: number;
  maxEventStreams: number;
  maxEventStreamsPerClient: number;
  /** Host names console actions are accepted under besides loopback and IP literals (allowed-hosts.ts). */
  allowedHosts: readonly string[];
  /** server.address: allowed as a host name too. */
  serverAddress: string;
  logger: Logger;
}

/** The most instances the fleet table holds (the longest silent are dropped beyond). */
const MAX_INSTANCES = 10_000;
/** A console stream's client that leaves this much unread, or reads nothing for this long, is dropped. */
const STREAM_MAX_BUFFERED_BYTES = 1_000_000;
const STREAM_DRAIN_TIMEOUT_MS = 30_000;

export class OperatorConsole {
  private readonly context: ConsoleContext;
  private readonly timers: NodeJS.Timeout[] = [];
  private busNode: BusNode | undefined;
  private lastStale = false;

  constructor(private readonly options: ConsoleOptions) {
    this.context = {
      repositories: options.repositories,
      mirror: options.mirror,
      history: options.mirror.history,
      catalogue: new ApplicationCatalogue(
        options.mirror,
        options.searchPaths,
        defaultFiles(options.repositories),
      ),
      tracker: options.tracker,
      fleet: new FleetRegistry({
        maxInstances: MAX_INSTANCES,
        expireAfterMs: 3 * options.presenceIntervalSeconds * 1000,
      }),
      events: new ConsoleEventStream({
        maxStreams: options.maxEventStreams,
        maxStreamsPerClient: options.maxEventStreamsPerClient,
        heartbeatMs: 15_000,
        maxBufferedBytes: STREAM_MAX_BUFFERED_BYTES,
        drainTimeoutMs: STREAM_DRAIN_TIMEOUT_MS,
        answered: options.answered,
        logger: options.logger,
      }),
      pushes: new PushLog(),
      maxProfiles: options.maxProfiles,
      busEnabled: options.busEnabled,
      bus: () => this.busNode,
      authEnabled: options.authEnabled,
      principalOf: options.principalOf,
      csrfToken: randomBytes(32).toString('base64url'),
      allowedHosts: new AllowedHosts(options.allowedHosts, options.serverAddress),
    };
    if (options.watchIntervalSeconds > 0) {
      const watch = setInterval(() => this.watchUpstream(), options.watchIntervalSeconds * 1000);
      watch.unref();
      this.timers.push(watch);
    }
  }

  async register(app: FastifyInstance): Promise<void> {
    registerRepositoryRoutes(app, this.context);
    registerEnvironmentRoutes(app, this.context);
    registerFleetRoutes(app, this.context);
    registerActionRoutes(app, this.context, this.options.logger);
    registerAuditRoutes(app, this.options.audit);
    registerHoldRoutes(app, this.context, this.options.holds);
    registerConsoleRolloutRoutes(app, this.context, this.options.rollouts);
    await registerConsoleAssets(app, consoleAssetsDir());
    // Open event streams would keep the HTTP server from closing.
    app.addHook('preClose', (done) => {
      this.context.events.close();
      done();
    });
  }

  /**
   * After an upstream check: tell open consoles when the repository went stale or recovered, and when the default
   * label moved (a push). Only changes are sent: every console read checks upstream, so an event per check would
   * make the page re-read, check again, and so on.
   */
  async repositoryChecked(refsChanged: boolean): Promise<void> {
    if (refsChanged) this.context.history.refsChanged();
    const stale = this.options.mirror.health().stale;
    if (stale !== this.lastStale) {
      this.lastStale = stale;
      this.context.events.publish('repository', { stale });
    }
    try {
      const { commit } = await this.options.mirror.refresh.resolveFetched(null);
      const push = this.context.pushes.observe(commit);
      if (push) this.context.events.publish('push', push);
    } catch {
      // No default label yet (empty or unreachable repository): nothing to compare.
    }
  }

  /** The server's bus node exists: ask every node to announce itself every presence interval. */
  busStarted(bus: BusNode): void {
    this.busNode = bus;
    this.busConnected();
    const timer = setInterval(() => this.busConnected(), this.options.presenceIntervalSeconds * 1000);
    timer.unref();
    this.timers.push(timer);
  }

  /** The bus (re)connected: ask every node to announce itself, so the fleet is whole again at once. */
  busConnected(): void {
    const bus = this.busNode;
    if (!bus?.connected) return;
    bus.publish(createPresenceRequest(bus.busId)).catch((error: unknown) => {
      this.options.logger.warn({ err: String(error) }, 'Could not send the presence request');
    });
  }

  /** Every ack on the bus: a live instance, maybe a new config version, maybe progress of a refresh. */
  acked(ack: AckBusEvent): void {
    this.context.fleet.acked(ack);
    this.context.events.publish('ack', {
      ackId: ack.ackId,
      service: ack.originService,
      configVersion: ack.configVersion ?? null,
    });
  }

  /** Bus events of other types: presence announcements update the fleet. */
  busEvent(event: BusEvent): void {
    const announcement = readPresenceAnnouncement(event);
    if (announcement && this.context.fleet.announced(announcement))
      this.context.events.publish('presence', {
        service: announcement.service,
        leaving: announcement.leaving,
      });
  }

  /** A staged rollout moved its applications' instances: open Rollouts views re-read. */
  async announce(applications: readonly string[], commit: string): Promise<void> {
    this.context.events.publish('rollout', { applications: [...applications], commit });
  }

  /** A staged rollout was paused or resumed (no instance moved): open Rollouts views re-read. */
  rolloutStatusChanged({ id, applications, status }: RolloutStatusChange): void {
    this.context.events.publish('rollout-status', { id, applications: [...applications], status });
  }

  /** A refresh published elsewhere (a webhook on /monitor). */
  refreshPublished(event: RefreshBusEvent): void {
    this.context.events.publish('refresh', { id: event.id, destination: event.destinationService });
  }

  close(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.context.events.close();
  }

  private watchUpstream(): void {
    if (this.context.events.openStreams === 0) return;
    this.options.mirror.refresh.refreshNow().catch((error: unknown) => {
      this.options.logger.debug({ err: String(error) }, 'Console upstream check failed');
    });
  }
}

/** The default repository's parsed files (its environment service's), which the catalogue parses through. */
function defaultFiles(repositories: RepositoryRouter): ParsedFiles {
  const served = repositories.defaultRepository;
  // consoleUnavailableReason: the console runs only on a default Git repository.
  if (served === undefined) throw new Error('The operator console needs a default repository');
  return served.environments.files;
}
