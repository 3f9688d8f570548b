/**
 * The watch stream (docs/watch.md): live configuration over plain HTTP, with or without a bus. `installWatch`
 * is the feature's one entry: it builds the hub (watch-hub.ts: topics and change detection), the streams
 * (watch-streams.ts), the long polls (watch-long-polls.ts), the admission bounds (watch-admission.ts) and the
 * routes (watch-routes.ts), and says when to re-check: whenever the default repository's mirror fetched a moved
 * ref (a webhook, a request's upstream check), every confbus.watch.upstream-check-interval while anyone
 * watches, and when another server announced a refresh on the bus (`upstreamChanged`). One mechanism for servers with and without a bus.
 */
import type { Logger } from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import type { RefreshTracker } from '../bus/refresh-tracker.js';
import type { OperatorConsole } from '../console/index.js';
import type { EnvironmentFinder } from '../environment/environment-finder.js';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import type { AnsweredRequests } from '../support/answered-requests.js';
import type { RepositoryRefresh } from '../environment/config-repository.js';
import type { ServerConfig } from '../server-config.js';
import type { CommitChoice } from '../serving/commit-choice.js';
import { WatchAdmission } from './watch-admission.js';
import { WatchHub } from './watch-hub.js';
import type { ServerSecurity } from '../security/install-security.js';
import { WatchLongPolls } from './watch-long-polls.js';
import { registerWatchRoutes } from './watch-routes.js';
import { WatchStreams } from './watch-streams.js';

export { watchSettingSpecs, readWatchSettings, type WatchSettings } from './watch-settings.js';
export type { WatchChange } from './watch-deliveries.js';

/** The SSE `retry:` an EventSource waits before reconnecting; confbus clients add their own jitter on top. */
export const WATCH_RETRY_MS = 2000;

export interface WatchFeature {
  readonly hub: WatchHub;
  readonly streams: WatchStreams;
  readonly longPolls: WatchLongPolls;
  readonly admission: WatchAdmission;
  /** Another server announced a refresh (on the bus): fetch now, so this server's watchers hear of it too. */
  upstreamChanged(): void;
  /** Ends every stream and long poll (at once: a shutdown does not wait for them) and stops the upstream checks. */
  close(): void;
}

export interface WatchInstall {
  readonly config: ServerConfig;
  /** Who watches: a principal watches only the applications it may read. */
  readonly security: ServerSecurity;
  readonly finder: EnvironmentFinder;
  /** The default repository's upstream; undefined for native folders and a uri template. */
  readonly refresh: RepositoryRefresh | undefined;
  readonly tracker: RefreshTracker;
  readonly console: OperatorConsole | undefined;
  /** Where an ended stream is reported, as fastify reports the requests it answered. */
  readonly answered: AnsweredRequests;
  readonly logger: Logger;
  /** Staged rollouts: while one holds an application, its watchers are not sent the environment (re-fetch). */
  readonly commitChoice?: CommitChoice | undefined;
}

export function installWatch(app: FastifyInstance, w: WatchInstall): WatchFeature | undefined {
  const { config, finder, logger: rootLogger } = w;
  const settings = config.watch;
  if (!settings.enabled) return undefined;
  const logger = rootLogger.child({ component: 'watch' });
  const hub = new WatchHub({
    finder,
    origin: `${config.bus.applicationName}:watch`,
    published: (event, version) => {
      w.tracker.published(event, version);
      w.console?.refreshPublished(event);
    },
    logger,
    maxEnvironmentBytes: settings.maxEnvironmentBytes,
    servesAllAlike: (request) => servesAllAlike(w.commitChoice, request),
  });
  const streams = new WatchStreams({ ...settings, retryMs: WATCH_RETRY_MS, logger });
  const longPolls = new WatchLongPolls(hub);
  const admission = new WatchAdmission(settings);
  registerWatchRoutes(app, {
    hub,
    streams,
    longPolls,
    admission,
    maxWaitMs: settings.maxWaitMs,
    prefix: config.http.prefix,
    maxProfiles: config.environment.maxProfiles,
    validateProfiles: config.environment.validateProfiles,
    security: w.security,
    answered: w.answered,
    acked: (ack) => {
      w.tracker.acked(ack);
      w.console?.acked(ack);
    },
  });

  const recheck = () => void hub.recheck();
  const mirror = w.refresh;
  mirror?.onChecked((changed) => changed && recheck());
  // Without a mirror that can be fetched (native folders, a uri template), re-reading is the check.
  const checkUpstream = () => {
    if (hub.watchers === 0) return;
    if (mirror) void mirror.refreshNow().catch(() => undefined);
    else recheck();
  };
  const { refreshRateSeconds } = config.repositories.defaultRepository;
  const timer =
    settings.upstreamCheckMs > 0 && refreshRateSeconds >= 0
      ? setInterval(checkUpstream, settings.upstreamCheckMs)
      : undefined;
  timer?.unref();
  return {
    hub,
    streams,
    longPolls,
    admission,
    // Another server saw a change (the bus): check upstream only when someone here is watching.
    upstreamChanged: checkUpstream,
    close: () => {
      clearInterval(timer);
      streams.close();
      longPolls.close();
    },
  };
}

/**
 * Whether every watcher of `request` would be answered the same commit by its own GET: not while a staged
 * rollout holds the application (it picks a commit per instance, by the headers of each GET). Asked without
 * an instance's headers, a holding rollout answers a pinned copy, and nothing is recorded.
 */
function servesAllAlike(choice: CommitChoice | undefined, request: EnvironmentRequest): boolean {
  return choice === undefined || !choice.holds || choice.choose(request, {}) === request;
}
