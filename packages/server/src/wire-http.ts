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
import { type GateFeature, installGate } from './gate/install-gate.js';
import { defaultRepositoryHealth, installHealth } from './health/install-health.js';
import { installAccessLog } from './http/access-log.js';
import { AnsweredRequests } from './support/answered-requests.js';
import { installErrorHandling } from './http/error-handler.js';
import { createHttpApp } from './http/http-app.js';
import { RepeatRequestFastPath } from './serving/repeat-request-fast-path.js';
import { registerMetricsRoutes } from './metrics/metrics-routes.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { installMonitor } from './monitor/install-monitor.js';
import type { RepositoryRouter } from './repositories/repository-router.js';
import { type ServerSecurity, installSecurity } from './security/install-security.js';
import { type AuditTrail, installAudit, noAuditLog } from './audit/index.js';
import type { Wiring } from './server-wiring.js';
import { type WatchFeature, installWatch } from './watch/index.js';
import { type RolloutsFeature, installRollouts } from './rollouts/index.js';
import { installAutoRollouts } from './rollouts/install-auto-rollouts.js';
import type { CommitChoice } from './serving/commit-choice.js';

export interface HttpSide {
  app: FastifyInstance;
  fastPath: RepeatRequestFastPath | undefined;
  console: OperatorConsole | undefined;
  watch: WatchFeature | undefined;
  /** The audit trail; undefined when confbus.audit.enabled=false. */
  audit: AuditTrail | undefined;
  security: ServerSecurity;
  /** The contract gate, unless off (confbus.contracts.gate.enabled=false, or no default Git repository). */
  gate: GateFeature | undefined;
  rollouts: RolloutsFeature | undefined;
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
    splitLabels: !config.repositories.native,
    continueOnFailure: environment.continueOnMultipleLabelFailure,
    caches: w.caches,
    workers: w.workers,
    logger,
  });
  const authEnabled = config.security.credentials.length > 0;
  // Before the HTTP app: the fast path in front of it asks the rollouts which commit each instance gets.
  const rollouts = installRollouts({
    settings: config.rollouts,
    prefix,
    finder,
    ...(w.rolloutStore ? { store: w.rolloutStore } : {}),
    repository: repositories.defaultRepository?.mirror,
    publisher: w.bus,
    clock: w.clock,
    logger,
  });
  const fastPath = buildFastPath(accessLog, authEnabled, repositories, finder, metrics, rollouts?.choice);
  const app = createHttpApp({ logger, limits, fastPath, tls: w.tls });

  installErrorHandling(app, limits.maxUrlLength);
  // Every answered request, streams included, told once to the metrics, the access log and the audit trail; each
  // named by the principal the security hook found.
  const answered = new AnsweredRequests(app, (request) => request.principal?.name ?? 'anonymous');
  // The security hook records auth failures to the audit trail.
  const audit = installAudit(app, {
    settings: config.audit,
    clock: w.clock,
    logger,
    sink: w.auditSink,
    answered,
  });
  const security = installSecurity(app, {
    settings: config.security,
    audit: audit ?? noAuditLog,
    clock: w.clock,
  });
  // Repeated URLs are answered before fastify only for a principal the security hook verified and that may read
  // them: the same check the environment route makes.
  fastPath?.guardWith(security.remembered);
  const showDetails = security.showDetails;
  registerMetricsRoutes(app, answered, metrics);
  if (accessLog) installAccessLog(answered, logger);
  // Before everything that serves or announces: the gate decides which commit the default repository serves.
  const gate = installGate(app, {
    settings: config.gate,
    repository: repositories.defaultRepository,
    registry: metrics.registry,
    logger,
    audit: audit ?? noAuditLog,
    principalOf: (request) => security.principalOf(request)?.name ?? 'anonymous',
  });
  // After the gate, so that it goes before it: a new head on a rule's branch is a rollout before it is served.
  if (rollouts)
    installAutoRollouts({
      rules: config.rollouts.auto,
      engine: rollouts.engine,
      repository: repositories.defaultRepository,
      logger,
    });
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
    principalOf: security.principalOf,
    audit,
    answered,
    holds: gate?.holds,
    rollouts,
    serverAddress: config.http.address,
    logger,
  });
  installMonitor(app, {
    settings: config.monitor,
    repository: repositories.defaultRepository,
    publisher: w.bus && announcedTo(w.bus, operatorConsole),
    watchEnabled: config.watch.enabled,
    tracker: w.tracker,
    gate: gate?.gate,
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
    ...(gate ? { contracts: () => gate.health() } : {}),
  });
  registerActuatorRoutes(app, w.build);
  // Spring's endpoints, under the prefix: /encrypt, /decrypt, /key, then the environments, files and resources.
  registerEncryptionRoutes(app, {
    locator: encryption.locator,
    logger: logger.child({ component: 'encryption' }),
    prefix,
    validateProfiles: environment.validateProfiles,
    defaultScope: environment.defaultScope,
    requireRead: security.requireRead,
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
    requireRead: security.requireRead,
    ...(fastPath ? { fastPath } : {}),
    ...(rollouts ? { commitChoice: rollouts.choice } : {}),
  });
  rollouts?.registerRoutes(app, { requireRead: security.requireRead, audit: audit ?? noAuditLog });
  const watch = installWatch(app, {
    config,
    security,
    finder,
    refresh: repositories.defaultRepository?.mirror.refresh,
    tracker: w.tracker,
    console: operatorConsole,
    answered,
    logger,
    ...(rollouts ? { commitChoice: rollouts.choice } : {}),
  });
  if (watch) rollouts?.watchedBy(watch.hub);
  if (operatorConsole) rollouts?.watchedBy(operatorConsole);
  return { app, fastPath, console: operatorConsole, watch, audit, security, gate, rollouts };
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
 * Repeated environment URLs skip fastify (see repeat-request-fast-path.ts); not with the access log on, so that
 * every one is logged. With credentials on, the fast path answers only a request whose credentials the security
 * hook verified before and whose principal may read the URL (guardWith), so every bound of the route is kept.
 */
function buildFastPath(
  everyRequestThroughFastify: boolean,
  guarded: boolean,
  repositories: RepositoryRouter,
  finder: MultiLabelFinder,
  metrics: ServerMetrics,
  choice: CommitChoice | undefined,
): RepeatRequestFastPath | undefined {
  if (everyRequestThroughFastify) return undefined;
  // A single label needs no combining: straight to the repositories, without the multi-label finder's turn.
  const single: EnvironmentFinder = {
    find: (request) => (request.label?.includes(',') ? finder.find(request) : repositories.find(request)),
    findNow: (request) => (request.label?.includes(',') ? undefined : repositories.findNow(request)),
  };
  return new RepeatRequestFastPath(
    single,
    { recorderFor: (route) => metrics.requestRecorder('GET', route, 200) },
    guarded,
    choice,
  );
}
