/**
 * The HTTP side of a wired config server: fastify behind the repeat-request fast path, with the error handling,
 * security, metrics and access log installed, then every route: /monitor (with the monitor service it needs),
 * health and the actuator, Spring's encryption and environment endpoints, the console.
 */
import type { ServerBus } from './bus/server-bus.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerActuatorRoutes } from './actuator/actuator-routes.js';
import {
  consoleUnavailableReason,
  registerConsoleUnavailable,
  reserveConsolePrefix,
} from './console/index.js';
import { registerEncryptionRoutes } from './encryption/index.js';
import { registerEnvironmentRoutes } from './environment/environment-controller.js';
import type { EnvironmentFinder } from './environment/environment-finder.js';
import { MultiLabelFinder } from './environment/multi-label-finder.js';
import { plainTextDecryptor } from './environment/plain-text-decryption.js';
import type { MirrorHealth } from './git/index.js';
import { healthQueryFindsNothing } from './health/accept-empty-check.js';
import { registerHealthRoutes } from './health/health-controller.js';
import type { ComponentHealth } from './health/health-status.js';
import { installAccessLog } from './http/access-log.js';
import { installErrorHandling } from './http/error-handler.js';
import { createHttpApp } from './http/http-app.js';
import { RepeatRequestFastPath } from './http/repeat-request-fast-path.js';
import { registerMetricsRoutes } from './metrics/metrics-routes.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { registerMonitorRoutes } from './monitor/monitor-controller.js';
import { MonitorService } from './monitor/monitor-service.js';
import type { RepositoryRouter } from './repositories/repository-router.js';
import { installSecurity } from './security/install-security.js';
import type { Wiring } from './server-wiring.js';

/** /monitor re-reads the default repository; absent for the native backend and for a uri template. */
function buildMonitor(w: Wiring): MonitorService | undefined {
  const served = w.repositories.defaultRepository;
  const refresh = served?.mirror.refresh;
  if (served === undefined || refresh === undefined) return undefined;
  const { bus } = w;
  return new MonitorService({
    repository: refresh,
    files: served.environments.files,
    publisher: bus && {
      publishRefresh: async (destination, configVersion) => {
        const event = await bus.publishRefresh(destination, configVersion);
        w.console?.refreshPublished(event);
        return event;
      },
    },
    published: w.tracker,
    ...w.config.monitor,
    logger: w.logger.child({ component: 'monitor' }),
    clock: w.clock,
  });
}

/** The default repository's health; without a mirror (the native backend) its first repository's. */
function defaultHealth(w: Wiring): () => MirrorHealth {
  return () =>
    w.defaultMirror?.health() ??
    Object.values(w.repositories.health())[0] ?? {
      uri: w.uri,
      available: true,
      stale: false,
      checks: 0,
      fetches: 0,
    };
}

/** Fastify with every route, behind the repeat-request fast path. */
export async function buildHttp(
  w: Wiring,
): Promise<{ app: FastifyInstance; fastPath: RepeatRequestFastPath | undefined }> {
  const { config, logger, repositories } = w;
  const { limits, accessLog } = config.http;
  const health = defaultHealth(w);
  const metrics = new ServerMetrics({
    build: w.build,
    git: health,
    environments: repositories,
    bus: () => w.bus?.node,
  });
  const finder = new MultiLabelFinder(repositories, {
    continueOnFailure: config.environment.continueOnMultipleLabelFailure,
    caches: w.caches,
    workers: w.workers,
    logger,
  });
  const authEnabled = config.security.credentials !== undefined;
  const fastPath = buildFastPath(authEnabled || accessLog, repositories, finder, metrics);
  const app = createHttpApp({ logger, limits, fastPath, tls: w.tls });
  installErrorHandling(app, limits.maxUrlLength);
  const showHealthDetails = installSecurity(app, config.security);
  registerMetricsRoutes(app, metrics);
  if (accessLog) installAccessLog(app, logger);
  registerOperationRoutes(app, w, { health, showHealthDetails });
  registerConfigRoutes(app, w, finder, fastPath);
  await registerConsole(app, w);
  return { app, fastPath };
}

/** /monitor and the refresh events (with a repository to re-read), health, and the actuator's info routes. */
function registerOperationRoutes(
  app: FastifyInstance,
  w: Wiring,
  {
    health,
    showHealthDetails,
  }: { health: () => MirrorHealth; showHealthDetails: (request: FastifyRequest) => boolean },
): void {
  const { config, repositories } = w;
  const monitor = buildMonitor(w);
  if (monitor) {
    const { maxAcksPerEvent } = config.bus.refreshEvents;
    registerMonitorRoutes(app, { service: monitor, tracker: w.tracker, maxAcksPerEvent });
  }
  registerHealthRoutes(app, {
    settings: config.health,
    showDetails: showHealthDetails,
    git: health,
    repositories: () => repositories.health(),
    components: () => busHealth(w.bus),
    ...(config.environment.acceptEmpty ? {} : { findsNothing: () => healthQueryFindsNothing(repositories) }),
  });
  registerActuatorRoutes(app, w.build);
}

/** Spring's endpoints, under the prefix: /encrypt, /decrypt, /key, then the environments, files and resources. */
function registerConfigRoutes(
  app: FastifyInstance,
  w: Wiring,
  finder: EnvironmentFinder,
  fastPath: RepeatRequestFastPath | undefined,
): void {
  const { logger } = w;
  const { prefix } = w.config.http;
  const environment = w.config.environment;
  registerEncryptionRoutes(app, {
    locator: w.encryption.locator,
    logger: logger.child({ component: 'encryption' }),
    prefix,
    validateProfiles: environment.validateProfiles,
    defaultScope: environment.defaultScope,
  });
  registerEnvironmentRoutes(app, {
    prefix,
    stripDocumentFromYaml: environment.stripDocumentFromYaml,
    reverseLocationOrder: environment.reverseLocationOrder,
    service: finder,
    resources: w.repositories,
    decryptResource: plainTextDecryptor(
      environment.plainTextEncrypt,
      w.encryption.locator,
      w.encryption.decryptor !== undefined,
    ),
    maxProfiles: environment.maxProfiles,
    validateProfiles: environment.validateProfiles,
    ...(fastPath ? { fastPath } : {}),
  });
}

/** The console's routes, or, when it cannot work here, routes that say why; its prefix is reserved either way. */
async function registerConsole(app: FastifyInstance, w: Wiring): Promise<void> {
  reserveConsolePrefix(app);
  const unavailable = consoleUnavailableReason(w.repositories, w.config.repositories.native);
  if (w.console) await w.console.register(app);
  else if (unavailable !== undefined && w.config.console.enabled)
    registerConsoleUnavailable(app, unavailable);
}

/**
 * Repeated environment URLs skip fastify (see repeat-request-fast-path.ts); not with auth on, so that every
 * request keeps going through the credentials check, nor with the access log on, so that every one is logged.
 */
function buildFastPath(
  everyRequestThroughFastify: boolean,
  repositories: RepositoryRouter,
  finder: MultiLabelFinder,
  metrics: ServerMetrics,
): RepeatRequestFastPath | undefined {
  if (everyRequestThroughFastify) return undefined;
  // A single label needs no combining: straight to the repositories, without the multi-label finder's turn.
  const single: EnvironmentFinder = {
    find: (request) => (request.label?.includes(',') ? finder.find(request) : repositories.find(request)),
    findNow: (request) => (request.label?.includes(',') ? undefined : repositories.findNow(request)),
  };
  return new RepeatRequestFastPath(single, {
    recorderFor: (route) => metrics.requestRecorder('GET', route, 200),
  });
}

/** The bus's health; DOWN while an enabled bus has not joined yet (the start has not finished). */
function busHealth(bus: ServerBus | undefined): Record<string, ComponentHealth> {
  if (!bus) return {};
  const node = bus.node;
  if (!node) return { bus: { status: 'DOWN', details: { joined: false } } };
  return {
    bus: { status: node.connected ? 'UP' : 'DOWN', details: { id: node.busId, ...node.transportDetails } },
  };
}
