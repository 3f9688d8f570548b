/**
 * The HTTP side of a wired config server, as a list of features: fastify behind the repeat-request fast path,
 * then error handling, security, metrics and the access log, then each feature installs its routes — /monitor,
 * health and the actuator, Spring's encryption and environment endpoints, the operator console, the watch stream.
 */
import type { FastifyInstance } from 'fastify';
import { registerActuatorRoutes } from './actuator/actuator-routes.js';
import type { OperatorConsole } from './console/index.js';
import { installConsole } from './console/install-console.js';
import type { RefreshPublisher } from './bus/server-bus.js';
import { registerEncryptionRoutes } from './encryption/index.js';
import { registerEnvironmentRoutes } from './serving/environment-controller.js';
import type { EnvironmentFinder } from './environment/environment-finder.js';
import { MultiLabelFinder } from './environment/multi-label-finder.js';
import { plainTextDecryptor } from './serving/plain-text-decryption.js';
import { defaultRepositoryHealth, installHealth } from './health/install-health.js';
import { installAccessLog } from './http/access-log.js';
import { installErrorHandling } from './http/error-handler.js';
import { createHttpApp } from './http/http-app.js';
import { RepeatRequestFastPath } from './serving/repeat-request-fast-path.js';
import { registerMetricsRoutes } from './metrics/metrics-routes.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { installMonitor } from './monitor/install-monitor.js';
import type { RepositoryRouter } from './repositories/repository-router.js';
import { installSecurity } from './security/install-security.js';
import type { Wiring } from './server-wiring.js';
import { type WatchFeature, installWatch } from './watch/index.js';

export interface HttpSide {
  app: FastifyInstance;
  fastPath: RepeatRequestFastPath | undefined;
  console: OperatorConsole | undefined;
  watch: WatchFeature | undefined;
}

/** Fastify with every feature's routes, behind the repeat-request fast path. */
export async function buildHttp(w: Wiring): Promise<HttpSide> {
  const { config, logger, repositories, encryption } = w;
  const { limits, accessLog, prefix } = config.http;
  const environment = config.environment;
  const git = defaultRepositoryHealth(repositories, w.uri);
  const metrics = new ServerMetrics({
    build: w.build,
    git,
    environments: repositories,
    bus: () => w.bus?.node,
  });
  const finder = new MultiLabelFinder(repositories, {
    continueOnFailure: environment.continueOnMultipleLabelFailure,
    caches: w.caches,
    workers: w.workers,
    logger,
  });
  const authEnabled = config.security.credentials !== undefined;
  const fastPath = buildFastPath(authEnabled || accessLog, repositories, finder, metrics);
  const app = createHttpApp({ logger, limits, fastPath, tls: w.tls });

  installErrorHandling(app, limits.maxUrlLength);
  const showDetails = installSecurity(app, config.security);
  registerMetricsRoutes(app, metrics);
  if (accessLog) installAccessLog(app, logger);
  const operatorConsole = await installConsole(app, {
    settings: config.console,
    repositories,
    native: config.repositories.native,
    tracker: w.tracker,
    searchPaths: config.repositories.defaultRepository.searchPaths,
    refreshRateSeconds: config.repositories.defaultRepository.refreshRateSeconds,
    maxProfiles: environment.maxProfiles,
    busEnabled: w.bus !== undefined,
    authEnabled,
    serverAddress: config.http.address,
    logger,
  });
  installMonitor(app, {
    settings: config.monitor,
    repository: repositories.defaultRepository,
    publisher: w.bus && announcedTo(w.bus, operatorConsole),
    watchEnabled: config.watch.enabled,
    tracker: w.tracker,
    maxAcksPerEvent: config.bus.refreshEvents.maxAcksPerEvent,
    logger,
    clock: w.clock,
  });
  installHealth(app, {
    settings: config.health,
    showDetails,
    git,
    repositories,
    bus: w.bus,
    acceptEmpty: environment.acceptEmpty,
  });
  registerActuatorRoutes(app, w.build);
  // Spring's endpoints, under the prefix: /encrypt, /decrypt, /key, then the environments, files and resources.
  registerEncryptionRoutes(app, {
    locator: encryption.locator,
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
    resources: repositories,
    decryptResource: plainTextDecryptor(
      environment.plainTextEncrypt,
      encryption.locator,
      encryption.decryptor !== undefined,
    ),
    maxProfiles: environment.maxProfiles,
    validateProfiles: environment.validateProfiles,
    ...(fastPath ? { fastPath } : {}),
  });
  const watch = installWatch(app, {
    config,
    finder,
    refresh: repositories.defaultRepository?.mirror.refresh,
    tracker: w.tracker,
    console: operatorConsole,
    logger,
  });
  return { app, fastPath, console: operatorConsole, watch };
}

/** Refreshes published on the bus, each also shown on the console's live view. */
function announcedTo(bus: RefreshPublisher, operatorConsole: OperatorConsole | undefined): RefreshPublisher {
  return {
    async publishRefresh(destination, configVersion) {
      const event = await bus.publishRefresh(destination, configVersion);
      operatorConsole?.refreshPublished(event);
      return event;
    },
  };
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
