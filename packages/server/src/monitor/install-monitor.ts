/**
 * The monitor feature: POST /monitor and /actuator/refresh-events, installed when the default repository can
 * refresh (not for the native folders, not for a uri template, whose repositories have no default one).
 */
import type { Logger } from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import type { RefreshTracker } from '../bus/refresh-tracker.js';
import type { Clock } from '../clock.js';
import type { ContractGate } from '../gate/contract-gate.js';
import type { ServedRepository } from '../repositories/served-repository.js';
import { registerMonitorRoutes } from './monitor-controller.js';
import type { RefreshPublisher } from '../bus/server-bus.js';
import { servedImpactSource } from '../impact/served-impact-source.js';
import { MonitorService } from './monitor-service.js';
import type { MonitorSettings } from './monitor-settings.js';

export interface MonitorInstall {
  readonly settings: MonitorSettings;
  /** The default repository; undefined for a uri template. */
  readonly repository: ServedRepository | undefined;
  /** Undefined without a bus: a push is re-read, and answered 503 CONFBUS_BUS_DISABLED. */
  readonly publisher: RefreshPublisher | undefined;
  /** The watch stream is on: without a bus a push is answered 200, watchers are told by the stream. */
  readonly watchEnabled: boolean;
  readonly tracker: RefreshTracker;
  /** The contract gate: a push is judged before anything is announced. */
  readonly gate: ContractGate | undefined;
  readonly maxAcksPerEvent: number;
  readonly logger: Logger;
  readonly clock: Clock;
}

export function installMonitor(app: FastifyInstance, install: MonitorInstall): void {
  const { repository, tracker } = install;
  const refresh = repository?.mirror.refresh;
  if (repository === undefined || refresh === undefined) return;
  const impact = servedImpactSource(repository);
  const service = new MonitorService({
    ...install.settings,
    repository: refresh,
    files: repository.environments.files,
    publisher: install.publisher,
    watchEnabled: install.watchEnabled,
    ...(install.gate ? { gate: install.gate } : {}),
    ...(impact ? { impact: { ...impact, maxEnvironments: install.settings.maxImpactEnvironments } } : {}),
    published: tracker,
    logger: install.logger.child({ component: 'monitor' }),
    clock: install.clock,
  });
  registerMonitorRoutes(app, { service, tracker, maxAcksPerEvent: install.maxAcksPerEvent });
}
