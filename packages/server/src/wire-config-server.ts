/**
 * The config server wired from its ports: the repository port (`openMirror`: a Git mirror, the native folders or a
 * test's fake, read by the environment service), the bus (`bus`: publishes what /monitor announces), the logger
 * and the clock. `createConfigServer` (create-config-server.ts) builds the real adapters from settings and calls
 * this; the fast test tier calls it with fakes (test/fakes/) and no git or broker at all.
 */
import type { BusNode } from '@confbus/bus';
import type { Settings } from '@confbus/core';
import { readRoutePrefix } from './settings/prefix-settings.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import { ConfigFileParser } from './environment/config-file-parser.js';
import { BuildGate } from './environment/build-gate.js';
import { EnvironmentCaches } from './environment/environment-caches.js';
import { EnvironmentWorkers } from './environment/environment-workers.js';
import type { EnvironmentFinder } from './environment/environment-finder.js';
import type { EnvironmentService } from './environment/environment-service.js';
import { registerEnvironmentRoutes } from './environment/environment-controller.js';
import { MultiLabelFinder } from './environment/multi-label-finder.js';
import { readOverrides, withOverrides } from './environment/property-overrides.js';
import { RepeatRequestFastPath } from './http/repeat-request-fast-path.js';
import { GitMirror, type MirrorHealth } from './git/index.js';
import { registerHealthRoutes } from './health/health-controller.js';
import { healthQueryFindsNothing } from './health/accept-empty-check.js';
import type { ComponentHealth } from './health/health-status.js';
import { registerActuatorRoutes } from './actuator/actuator-routes.js';
import { type BuildInfo, readBuildInfo } from './actuator/build-info.js';
import { installErrorHandling } from './http/error-handler.js';
import { RefreshTracker } from './bus/refresh-tracker.js';
import type { ServerBus } from './bus/server-bus.js';
import { registerMonitorRoutes } from './monitor/monitor-controller.js';
import { type MonitorRepository, MonitorService } from './monitor/monitor-service.js';
import { WEBHOOK_SECRET_HOSTS, type WebhookSecrets } from './monitor/index.js';
import { createHttpApp } from './http/http-app.js';
import type { RequestLimits } from './http/request-limits.js';
import { installAccessLog } from './http/access-log.js';
import { registerMetricsRoutes } from './metrics/metrics-routes.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { installSecurity, isAuthEnabled } from './security/install-security.js';
import { close, listen } from './server-lifecycle.js';
import { type ServerEncryption, registerEncryptionRoutes } from './encryption/index.js';
import { plainTextDecryptor } from './environment/plain-text-decryption.js';
import { readHealthSettings } from './settings/health-settings.js';
import {
  OperatorConsole,
  consoleUnavailableReason,
  registerConsoleUnavailable,
  reserveConsolePrefix,
} from './console/index.js';
import { type OpenMirror, openRepositories } from './repositories/open-repositories.js';
import type { RepositoryRouter } from './repositories/repository-router.js';
import type { ServedMirror } from './repositories/served-repository.js';

const GIT = 'spring.cloud.config.server.git';

export interface ConfigServer {
  readonly app: FastifyInstance;
  /** Every repository served (default, repos.*, placeholder-made); requests are routed through it. */
  readonly repositories: RepositoryRouter;
  /** The default repository's mirror; undefined when its uri has placeholders (then there is one per application). */
  readonly mirror: GitMirror | undefined;
  /** The default repository's environments (same condition). */
  readonly environments: EnvironmentService | undefined;
  /** The environment and parsed-file caches every repository shares (bounded by confbus.server.cache.*). */
  readonly caches: EnvironmentCaches;
  readonly tracker: RefreshTracker;
  /** The encryption key (if any) and the server-side decryptor (if enabled). */
  readonly encryption: ServerEncryption;
  /** The operator console, unless confbus.console.enabled=false. */
  readonly console: OperatorConsole | undefined;
  /** Answers repeated environment URLs without fastify; undefined when basic auth is on. */
  readonly fastPath: RepeatRequestFastPath | undefined;
  /** Set once listening, when spring.cloud.bus.enabled. */
  readonly bus: BusNode | undefined;
  /** Listens on server.address/server.port; resolves to the bound URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface ConfigServerPorts {
  /** Resolved server settings (see resolveServerSettings). */
  settings: Settings;
  logger: Logger;
  /** Wall-clock time (webhook signature windows). */
  clock: Clock;
  /** The default repository's uri as configured ('native' for the native backend). */
  uri: string;
  /** The repository port: opens the store of each repository served. */
  openMirror: OpenMirror;
  /** The refresh bus; undefined when spring.cloud.bus.enabled is false. */
  bus: ServerBus | undefined;
  /** The encryption key and decryptor (default: none). */
  encryption?: ServerEncryption;
  /** Where the default repository's mirror lives, for the start-up line (default: the Git mirror's). */
  basedir?: string;
}

/** What the parts below share: the ports, and what is built once from them. */
interface Wiring extends ConfigServerPorts {
  encryption: ServerEncryption;
  parser: ConfigFileParser;
  caches: EnvironmentCaches;
  workers: EnvironmentWorkers;
  repositories: RepositoryRouter;
  /** The default repository's store (a Git mirror, the native folders, a fake); none for a uri template. */
  defaultMirror: ServedMirror | undefined;
  /** The same when it is a Git mirror: the console works on one. */
  mirror: GitMirror | undefined;
  tracker: RefreshTracker;
  console: OperatorConsole | undefined;
  build: BuildInfo;
}

export async function wireConfigServer(ports: ConfigServerPorts): Promise<ConfigServer> {
  const encryption = ports.encryption ?? { locator: undefined, decryptor: undefined };
  const stores = openStores(ports, encryption);
  const { repositories } = stores;
  const defaultMirror = repositories.defaultRepository?.mirror;
  const mirror = defaultMirror instanceof GitMirror ? defaultMirror : undefined;
  const tracker = new RefreshTracker(ports.logger.child({ component: 'bus' }), trackerLimits(ports.settings));
  const partial = { ...ports, ...stores, encryption, defaultMirror, mirror, tracker };
  const wiring: Wiring = { ...partial, console: buildConsole(partial), build: readBuildInfo() };
  const { app, fastPath } = await buildHttp(wiring);
  return {
    app,
    repositories,
    mirror,
    environments: repositories.defaultRepository?.environments,
    caches: stores.caches,
    tracker,
    encryption,
    console: wiring.console,
    fastPath,
    get bus() {
      return ports.bus?.node;
    },
    listen: () => listen(wiring, app),
    close: () => close(wiring, app),
  };
}

/**
 * The repositories served, with what their environment services share: the file parser, the caches and the
 * worker threads; each environment built is decrypted and given the server's overrides once, before caching.
 */
function openStores(
  ports: ConfigServerPorts,
  encryption: ServerEncryption,
): Pick<Wiring, 'parser' | 'caches' | 'workers' | 'repositories'> {
  const { settings } = ports;
  const workers = new EnvironmentWorkers();
  const parser = new ConfigFileParser({
    maxFileBytes: settings.number('confbus.server.max-file-bytes'),
    maxFileDocuments: settings.number('confbus.server.max-file-documents'),
    workers,
  });
  const caches = new EnvironmentCaches({
    maxEntries: settings.number('confbus.server.cache.max-entries'),
    maxBytes: settings.number('confbus.server.cache.max-bytes'),
  });
  const { decryptor } = encryption;
  const overrides = readOverrides(settings);
  const repositories = openRepositories({
    settings,
    uri: ports.uri,
    openMirror: ports.openMirror,
    parser,
    buildGate: new BuildGate(
      settings.number('confbus.server.max-concurrent-builds'),
      settings.number('confbus.server.max-queued-builds'),
    ),
    caches,
    workers,
    transform:
      decryptor || Object.keys(overrides).length > 0
        ? async (env) => withOverrides(decryptor ? await decryptor.decrypt(env) : env, overrides)
        : undefined,
    logger: ports.logger,
  });
  return { parser, caches, workers, repositories };
}

function trackerLimits(settings: Settings): { maxEvents: number; maxAcksPerEvent: number; maxBytes: number } {
  return {
    maxEvents: settings.number('confbus.server.refresh-events.max-events'),
    maxAcksPerEvent: settings.number('confbus.server.refresh-events.max-acks-per-event'),
    maxBytes: settings.number('confbus.server.refresh-events.max-bytes'),
  };
}

/**
 * The operator console, on the default repository's Git mirror, reading environments through the router; none
 * when switched off, or when it cannot work here (native backend, a uri template: then its paths say why).
 */
function buildConsole(w: Omit<Wiring, 'console' | 'build'>): OperatorConsole | undefined {
  const { settings, mirror, logger } = w;
  if (!settings.boolean('confbus.console.enabled')) return undefined;
  const unavailable = consoleUnavailableReason(w.repositories);
  if (unavailable !== undefined) logger.info(`The operator console is off: ${unavailable}`);
  if (unavailable !== undefined || !mirror) return undefined;
  const refreshRate = settings.number(`${GIT}.refresh-rate`);
  const operatorConsole = new OperatorConsole({
    repositories: w.repositories,
    mirror,
    tracker: w.tracker,
    searchPaths: settings.list(`${GIT}.search-paths`),
    maxProfiles: settings.number('confbus.server.max-profiles'),
    busEnabled: w.bus !== undefined,
    authEnabled: isAuthEnabled(settings),
    // refresh-rate < 0 means "never check upstream": an open console does not override that.
    watchIntervalSeconds: refreshRate < 0 ? 0 : settings.number('confbus.console.watch-interval'),
    presenceIntervalSeconds: settings.number('confbus.console.presence-interval'),
    maxEventStreams: settings.number('confbus.console.max-event-streams'),
    logger: logger.child({ component: 'console' }),
  });
  mirror.on('fetched', ({ changed }) => void operatorConsole.repositoryChecked(changed));
  const checked = () => void operatorConsole.repositoryChecked(false);
  mirror.on('stale', checked).on('recovered', checked);
  return operatorConsole;
}

const isMonitorRepository = (mirror: ServedMirror | undefined): mirror is ServedMirror & MonitorRepository =>
  mirror !== undefined && 'refreshNow' in mirror && 'resolveFetched' in mirror;

/** /monitor re-reads the default repository; absent for the native backend and for a uri template. */
function buildMonitor(w: Wiring): MonitorService | undefined {
  const { settings, defaultMirror } = w;
  if (!isMonitorRepository(defaultMirror)) return undefined;
  const secrets: WebhookSecrets = {};
  for (const host of WEBHOOK_SECRET_HOSTS) {
    const secret = settings.optionalString(`confbus.monitor.${host}.secret`);
    if (secret !== undefined) secrets[host] = secret;
  }
  const bus = w.bus;
  return new MonitorService({
    repository: defaultMirror,
    parser: w.parser,
    publisher: {
      publishRefresh: async (destination, configVersion) => {
        if (!bus) throw new Error('The bus is not started');
        const event = await bus.publishRefresh(destination, configVersion);
        w.console?.refreshPublished(event);
        return event;
      },
    },
    busEnabled: bus !== undefined,
    published: w.tracker,
    secrets,
    requireSignature: settings.boolean('confbus.monitor.require-signature'),
    allowUnsigned: settings.boolean('confbus.monitor.allow-unsigned'),
    maxFiles: settings.number('confbus.monitor.max-files'),
    logger: w.logger.child({ component: 'monitor' }),
    clock: w.clock,
  });
}

function requestLimits(settings: Settings): RequestLimits {
  return {
    maxUrlLength: settings.number('confbus.server.max-url-length'),
    maxBodyBytes: settings.number('confbus.server.max-body-bytes'),
    maxHeaderBytes: settings.number('confbus.server.max-header-bytes'),
  };
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
async function buildHttp(
  w: Wiring,
): Promise<{ app: FastifyInstance; fastPath: RepeatRequestFastPath | undefined }> {
  const { settings, logger, repositories } = w;
  const limits = requestLimits(settings);
  const health = defaultHealth(w);
  const metrics = new ServerMetrics({
    build: w.build,
    git: health,
    environments: repositories,
    bus: () => w.bus?.node,
  });
  const finder = new MultiLabelFinder(repositories, {
    continueOnFailure: settings.boolean(`${GIT}.continue-on-multiple-label-failure`),
    caches: w.caches,
    workers: w.workers,
    logger,
  });
  const accessLog = settings.boolean('confbus.logging.access-log');
  const fastPath = buildFastPath(settings, accessLog, repositories, finder, metrics);
  const app = createHttpApp({ logger, limits, fastPath });
  installErrorHandling(app, limits.maxUrlLength);
  const showHealthDetails = installSecurity(app, settings);
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
  const { settings, repositories } = w;
  const monitor = buildMonitor(w);
  if (monitor) {
    const maxAcksPerEvent = trackerLimits(settings).maxAcksPerEvent;
    registerMonitorRoutes(app, { service: monitor, tracker: w.tracker, maxAcksPerEvent });
  }
  registerHealthRoutes(app, {
    settings: readHealthSettings(settings),
    showDetails: showHealthDetails,
    git: health,
    repositories: () => repositories.health(),
    components: () => busHealth(w.bus?.node),
    ...(settings.boolean('spring.cloud.config.server.accept-empty')
      ? {}
      : { findsNothing: () => healthQueryFindsNothing(repositories) }),
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
  const { settings, logger } = w;
  const prefix = readRoutePrefix(settings);
  registerEncryptionRoutes(app, {
    locator: w.encryption.locator,
    logger: logger.child({ component: 'encryption' }),
    prefix,
    defaultScope: {
      name: settings.string('spring.cloud.config.server.default-application-name'),
      profiles: settings.string('spring.cloud.config.server.default-profile'),
    },
  });
  registerEnvironmentRoutes(app, {
    prefix,
    stripDocumentFromYaml: settings.boolean('spring.cloud.config.server.strip-document-from-yaml'),
    reverseLocationOrder: settings.boolean('spring.cloud.config.server.reverse-location-order'),
    service: finder,
    resources: w.repositories,
    decryptResource: plainTextDecryptor(settings, w.encryption.locator, w.encryption.decryptor !== undefined),
    maxProfiles: settings.number('confbus.server.max-profiles'),
    ...(fastPath ? { fastPath } : {}),
  });
}

/** The console's routes, or, when it cannot work here, routes that say why; its prefix is reserved either way. */
async function registerConsole(app: FastifyInstance, w: Wiring): Promise<void> {
  reserveConsolePrefix(app);
  const unavailable = consoleUnavailableReason(w.repositories);
  if (w.console) await w.console.register(app);
  else if (unavailable !== undefined && w.settings.boolean('confbus.console.enabled'))
    registerConsoleUnavailable(app, unavailable);
}

/**
 * Repeated environment URLs skip fastify (see repeat-request-fast-path.ts); not with auth on, so that every
 * request keeps going through the credentials check, nor with the access log on, so that every one is logged.
 */
function buildFastPath(
  settings: Settings,
  accessLog: boolean,
  repositories: RepositoryRouter,
  finder: MultiLabelFinder,
  metrics: ServerMetrics,
): RepeatRequestFastPath | undefined {
  if (isAuthEnabled(settings) || accessLog) return undefined;
  // A single label needs no combining: straight to the repositories, without the multi-label finder's turn.
  const single: EnvironmentFinder = {
    find: (request) => (request.label?.includes(',') ? finder.find(request) : repositories.find(request)),
    findNow: (request) => (request.label?.includes(',') ? undefined : repositories.findNow(request)),
  };
  return new RepeatRequestFastPath(single, {
    recorderFor: (route) => metrics.requestRecorder('GET', route, 200),
  });
}

function busHealth(bus: BusNode | undefined): Record<string, ComponentHealth> {
  if (!bus) return {};
  return {
    bus: { status: bus.connected ? 'UP' : 'DOWN', details: { id: bus.busId, ...bus.transportDetails } },
  };
}
