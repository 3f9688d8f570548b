/**
 * The console feature: reserves `/-/` for confbus's own pages, then installs the operator console on the
 * default repository when it is switched on and can work there (a repository that refreshes and has a history:
 * a Git mirror), or routes that say why it cannot.
 */
import type { Logger } from '@confbus/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditTrail } from '../audit/index.js';
import type { AnsweredRequests } from '../support/answered-requests.js';
import type { HoldOperations } from '../gate/hold-operations.js';
import type { RolloutsFeature } from '../rollouts/index.js';
import type { Principal } from '../security/principal.js';
import type { RefreshTracker } from '../bus/refresh-tracker.js';
import type { RepositoryRouter } from '../repositories/repository-router.js';
import { isConsoleRepository } from './console-context.js';
import type { ConsoleSettings } from './console-settings.js';
import {
  OperatorConsole,
  consoleUnavailableReason,
  registerConsoleUnavailable,
  reserveConsolePrefix,
} from './index.js';

export interface ConsoleInstall {
  readonly settings: ConsoleSettings;
  readonly repositories: RepositoryRouter;
  /** spring.profiles.active=native (named when the console is off for it). */
  readonly native: boolean;
  readonly tracker: RefreshTracker;
  /** The default repository's search paths (its application catalogue). */
  readonly searchPaths: readonly string[];
  /** The default repository's refresh-rate: below 0 the console never checks upstream either. */
  readonly refreshRateSeconds: number;
  readonly maxProfiles: number;
  readonly busEnabled: boolean;
  readonly authEnabled: boolean;
  readonly principalOf: (request: FastifyRequest) => Principal | undefined;
  readonly audit: AuditTrail | undefined;
  /** Takes the event streams' replies over from fastify; each reports its end. */
  readonly answered: AnsweredRequests;
  /** The contract gate's holds (undefined without a gate). */
  readonly holds: HoldOperations | undefined;
  /** The staged rollouts (undefined when they are off). */
  readonly rollouts: Pick<RolloutsFeature, 'engine' | 'start'> | undefined;
  /** server.address: a host name console actions are accepted under. */
  readonly serverAddress: string;
  readonly logger: Logger;
}

/** Returns the console when it runs (the server tells it about the bus, pushes and refreshes). */
export async function installConsole(
  app: FastifyInstance,
  install: ConsoleInstall,
): Promise<OperatorConsole | undefined> {
  reserveConsolePrefix(app);
  const { settings, repositories, logger } = install;
  if (!settings.enabled) return undefined;
  const unavailable = consoleUnavailableReason(repositories, install.native);
  const served = repositories.defaultRepository;
  if (unavailable !== undefined || served === undefined || !isConsoleRepository(served.mirror)) {
    if (unavailable !== undefined) {
      logger.info({}, `The operator console is off: ${unavailable}`);
      registerConsoleUnavailable(app, unavailable);
    }
    return undefined;
  }
  const { searchPaths, refreshRateSeconds } = install;
  const mirror = served.mirror;
  const operatorConsole = new OperatorConsole({
    repositories,
    mirror,
    tracker: install.tracker,
    searchPaths,
    maxProfiles: install.maxProfiles,
    busEnabled: install.busEnabled,
    authEnabled: install.authEnabled,
    principalOf: install.principalOf,
    audit: install.audit,
    answered: install.answered,
    holds: install.holds,
    rollouts: install.rollouts,
    // refresh-rate < 0 means "never check upstream": an open console does not override that.
    watchIntervalSeconds: refreshRateSeconds < 0 ? 0 : settings.watchIntervalSeconds,
    presenceIntervalSeconds: settings.presenceIntervalSeconds,
    maxEventStreams: settings.maxEventStreams,
    maxEventStreamsPerClient: settings.maxEventStreamsPerClient,
    allowedHosts: settings.allowedHosts,
    serverAddress: install.serverAddress,
    logger: logger.child({ component: 'console' }),
  });
  mirror.refresh.onChecked((changed) => void operatorConsole.repositoryChecked(changed));
  await operatorConsole.register(app);
  return operatorConsole;
}
