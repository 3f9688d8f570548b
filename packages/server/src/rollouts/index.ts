/**
 * Staged rollouts (docs/rollouts.md): one application (or several) moved from commit A to commit B in waves,
 * judged by the fleet's health reports, rolled back automatically. `installRollouts` is the feature's one entry:
 * it builds the engine on its store, the serving path's commit choice (serving/commit-choice.ts) — made before
 * the HTTP app, which the repeat-request fast path sits in front of — and registers the routes once the app
 * exists. `open` reads the store and starts the tick; `close` stops it.
 */
import { ConfbusError, type Logger, instanceIdentityOf } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AuditLog, noAuditLog } from '../audit/audit-log.js';
import type { ReadTarget } from '../security/principal.js';
import type { RefreshPublisher } from '../bus/server-bus.js';
import type { Clock } from '../clock.js';
import type { EnvironmentFinder } from '../environment/environment-finder.js';
import { type EnvironmentRequest, environmentRequest } from '../environment/environment-service.js';
import { serverErrors } from '../errors.js';
import type { CommitChoice } from '../serving/commit-choice.js';
import { RolloutEngine } from './rollout-engine.js';
import type { RolloutPlan, RolloutState, RolloutStatus } from './rollout-plan.js';
import { registerRolloutRoutes, startRollout } from './rollout-routes.js';
import type { RolloutSettings } from './rollout-settings.js';
import { MemoryRolloutStore, type RolloutStore } from './rollout-store.js';
import { GitRolloutStore } from './git-rollout-store.js';
import type { ConfigRepository } from '../environment/config-repository.js';

export { rolloutSettingSpecs, readRolloutSettings, type RolloutSettings } from './rollout-settings.js';
export { MemoryRolloutStore, type RolloutStore } from './rollout-store.js';
export type { RolloutEngine } from './rollout-engine.js';

export interface RolloutsInstall {
  readonly settings: RolloutSettings;
  /** spring.cloud.config.server.prefix: the API sits beside the environment endpoints. */
  readonly prefix: string;
  /** What the environment endpoint answers with: a plan's commits are checked through it. */
  readonly finder: EnvironmentFinder;
  /** Where rollouts are kept when the settings' store is not used (tests); default: from the settings. */
  readonly store?: RolloutStore;
  /** The default repository: its own ref is the 'git' store. Undefined for a uri template. */
  readonly repository: Pick<ConfigRepository, 'stateRef'> | undefined;
  /** Undefined without a bus: instances then learn of rollout changes by the watch stream (watchedBy). */
  readonly publisher: RefreshPublisher | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface RolloutsFeature {
  readonly engine: RolloutEngine;
  /** Starts a rollout from a plan's JSON, as POST /-/rollouts does (the console's start form uses it too). */
  start(body: unknown): Promise<RolloutState>;
  /** The serving path's hook (environment routes and fast path). */
  readonly choice: CommitChoice;
  /**
   * Registers the API once the app exists, with what was built after this feature: security's read check and
   * the audit log (the judge's automatic rollbacks are recorded there from then on).
   */
  registerRoutes(app: FastifyInstance, after: RolloutRoutesDependencies): void;
  /**
   * Rollout changes are told to the watch stream's watchers too (a fleet without a bus), once it exists, and to
   * the operator console's open pages.
   */
  watchedBy(watchers: RolloutWatchers): void;
  /** Reads the store (a restart resumes) and starts judging. */
  open(): Promise<void>;
  close(): void;
}

/** The watch stream's hub and the console, as the rollouts tell them of their changes (watch/watch-hub.ts). */
export interface RolloutWatchers {
  /** Instances of `applications` are to be served `version` (a start, a wave, an end). */
  announce(applications: readonly string[], version: string): Promise<void>;
  /** A rollout was paused or resumed: nobody is served anything else (the console shows it). */
  rolloutStatusChanged?(rollout: RolloutStatusChange): void;
}

export interface RolloutStatusChange {
  readonly id: string;
  readonly applications: readonly string[];
  readonly status: RolloutStatus;
}

export interface RolloutRoutesDependencies {
  readonly requireRead: (request: FastifyRequest, target: ReadTarget) => void;
  readonly audit: AuditLog;
}

export function installRollouts(install: RolloutsInstall): RolloutsFeature | undefined {
  const { settings, finder, publisher, logger: rootLogger } = install;
  if (!settings.enabled) return undefined;
  const logger = rootLogger.child({ component: 'rollouts' });
  const store = install.store ?? storeFromSettings(settings, install.repository, logger);
  // The audit log exists only once the HTTP app does, after the fast path that needs this feature's choice.
  let audit: AuditLog = noAuditLog;
  // The watch stream and the console are installed after the HTTP app too.
  const watchers: RolloutWatchers[] = [];
  const engine = new RolloutEngine({
    audit: { record: (entry) => audit.record(entry) },
    store,
    clock: install.clock,
    judge: settings.judge,
    reportIntervalMs: settings.reportIntervalMs,
    logger,
    verify: (plan) => verifyPlan(finder, plan),
    announce: async (applications, commit) => {
      await Promise.all([
        ...watchers.map((watcher) => watcher.announce(applications, commit)),
        ...(publisher ? applications.map((name) => publisher.publishRefresh(name, commit)) : []),
      ]);
    },
    statusChanged: ({ id, plan, status }) => {
      for (const watcher of watchers)
        watcher.rolloutStatusChanged?.({ id, applications: plan.applications, status });
    },
  });
  // What a start reads a plan with: the settings' defaults, and the label's head for a plan without `to`.
  const starting = {
    engine,
    defaults: { waves: settings.defaultWaves, bakeMs: settings.defaultBakeMs },
    headOf: async (application: string, label: string | null) =>
      (await finder.find(requestFor(application, label))).revision.commit,
  };
  let timer: NodeJS.Timeout | undefined;
  let sync: NodeJS.Timeout | undefined;
  return {
    engine,
    choice: {
      get holds() {
        return engine.holds;
      },
      choose: (request, headers) => engine.choose(request, instanceIdentityOf(headers)),
    },
    watchedBy(watcher) {
      watchers.push(watcher);
    },
    start: (body) => startRollout(body, starting),
    registerRoutes(app, after) {
      audit = after.audit;
      registerRolloutRoutes(app, { ...starting, requireRead: after.requireRead, prefix: install.prefix });
    },
    async open() {
      // The timers first: a store that cannot be read now (its upstream down at start) is read again by the sync.
      timer = setInterval(() => {
        engine
          .tick()
          .catch((error: unknown) => logger.warn({ reason: messageOf(error) }, 'Rollout tick failed'));
      }, settings.tickMs);
      timer.unref();
      // Another replica may start or move a rollout: its store is read again (memory: nothing to follow).
      if (store instanceof GitRolloutStore) {
        sync = setInterval(() => {
          engine
            .reload()
            .catch((error: unknown) =>
              logger.warn({ reason: messageOf(error) }, 'Rollout store read failed'),
            );
        }, settings.syncMs);
        sync.unref();
      }
      await engine.open();
    },
    close() {
      clearInterval(timer);
      clearInterval(sync);
    },
  };
}

/** The 'git' store on the default repository's own ref; this process's memory when there is none to write. */
function storeFromSettings(
  settings: RolloutSettings,
  repository: Pick<ConfigRepository, 'stateRef'> | undefined,
  logger: Logger,
): RolloutStore {
  if (settings.store === 'git' && repository?.stateRef)
    return new GitRolloutStore(repository.stateRef(settings.ref));
  if (settings.store === 'git')
    logger.warn(
      {},
      'Rollouts are kept in memory: the default repository is not a Git mirror the server can push to (confbus.server.rollouts.store=git); they do not survive a restart and are not shared with other replicas',
    );
  return new MemoryRolloutStore();
}

function requestFor(application: string, label: string | null, commit?: string): EnvironmentRequest {
  const request = environmentRequest([application], ['default'], label);
  return commit === undefined ? request : { ...request, commit };
}

/** Both commits build each application's environment (an unknown commit, a broken file: refused before start). */
async function verifyPlan(finder: EnvironmentFinder, plan: RolloutPlan): Promise<void> {
  for (const application of plan.applications) {
    for (const [field, commit] of [
      ['from', plan.from],
      ['to', plan.to],
    ] as const) {
      try {
        await finder.find(requestFor(application, plan.label, commit));
      } catch (error) {
        throw new ConfbusError(
          serverErrors.CONFBUS_ROLLOUT_BAD_REQUEST,
          `'${field}' commit ${commit} cannot serve '${application}': ${messageOf(error)}`,
        );
      }
    }
  }
}
