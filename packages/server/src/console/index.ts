/**
 * The operator console: its JSON API and server-sent events under /-/console/api/, its page under /-/console/.
 * `createConsole` builds the console's own state (fleet, pushes, event streams); the composition root tells it
 * what happens elsewhere (upstream checks, bus events, refreshes published by /monitor).
 */
import { randomBytes } from 'node:crypto';
import type { BusNode } from '@confbus/bus';
import {
  type AckBusEvent,
  type BusEvent,
  type Logger,
  type RefreshBusEvent,
  createPresenceRequest,
  readPresenceAnnouncement,
} from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import type { RefreshTracker } from '../bus/refresh-tracker.js';
import type { EnvironmentService } from '../environment/environment-service.js';
import { GitHistory, type GitMirror } from '../git/index.js';
import { registerActionRoutes } from './action-routes.js';
import { ApplicationCatalogue } from './application-catalogue.js';
import { consoleAssetsDir } from '@confbus/console';
import { registerConsoleAssets } from './console-assets.js';
import type { ConsoleContext } from './console-context.js';
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

export interface ConsoleOptions {
  mirror: GitMirror;
  /** The mirror's bare repository, for history queries. */
  gitDir: string;
  environments: EnvironmentService;
  tracker: RefreshTracker;
  displayUri: string;
  searchPaths: readonly string[];
  maxProfiles: number;
  busEnabled: boolean;
  authEnabled: boolean;
  /** Upstream checks while a console is open, so a push shows without a webhook; 0 = none. */
  watchIntervalSeconds: number;
  /** Presence requests on the bus; an instance silent for three intervals leaves the fleet. */
  presenceIntervalSeconds: number;
  maxEventStreams: number;
  logger: Logger;
}

/** The most instances the fleet table holds (the longest silent are dropped beyond). */
const MAX_INSTANCES = 10_000;

export class OperatorConsole {
  private readonly context: ConsoleContext;
  private readonly timers: NodeJS.Timeout[] = [];
  private busNode: BusNode | undefined;
  private lastStale = false;

  constructor(private readonly options: ConsoleOptions) {
    this.context = {
      mirror: options.mirror,
      history: new GitHistory(options.gitDir),
      catalogue: new ApplicationCatalogue(options.mirror, options.searchPaths),
      environments: options.environments,
      tracker: options.tracker,
      fleet: new FleetRegistry({
        maxInstances: MAX_INSTANCES,
        expireAfterMs: 3 * options.presenceIntervalSeconds * 1000,
      }),
      events: new ConsoleEventStream({ maxStreams: options.maxEventStreams, heartbeatMs: 15_000 }),
      pushes: new PushLog(),
      displayUri: options.displayUri,
      maxProfiles: options.maxProfiles,
      busEnabled: options.busEnabled,
      bus: () => this.busNode,
      authEnabled: options.authEnabled,
      csrfToken: randomBytes(32).toString('base64url'),
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
      const { commit } = await this.options.mirror.resolveFetched(null);
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
    this.options.mirror.refreshNow().catch((error: unknown) => {
      this.options.logger.debug({ err: String(error) }, 'Console upstream check failed');
    });
  }
}
