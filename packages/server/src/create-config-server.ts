/**
 * The composition root of the config server: reads settings, builds the git mirror, the environment service
 * and the HTTP routes, and wires them together. Nothing else in the server `new`s a collaborator.
 */
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { BusNode, busNodeOptionsFromSettings, isBusEnabled, readBusMemberSettings } from '@confbus/bus';
import { type Settings, defaultBusId, effectiveSettings, maskUriUserInfo } from '@confbus/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import { ConfigFileParser } from './environment/config-file-parser.js';
import type { EnvironmentService } from './environment/environment-service.js';
import { RepeatRequestFastPath } from './environment/repeat-request-fast-path.js';
import { registerEnvironmentRoutes } from './environment/environment-controller.js';
import { GitMirror, type MirrorHealth } from './git/index.js';
import { registerHealthRoutes } from './health/health-controller.js';
import { readHealthSettings } from './settings/health-settings.js';
import { plainTextDecryptor } from './environment/plain-text-decryption.js';
import type { ComponentHealth } from './health/health-status.js';
import { registerActuatorRoutes } from './actuator/actuator-routes.js';
import { readBuildInfo } from './actuator/build-info.js';
import { installErrorHandling } from './http/error-handler.js';
import { RefreshTracker } from './bus/refresh-tracker.js';
import { registerMonitorRoutes } from './monitor/monitor-controller.js';
import { MonitorService } from './monitor/monitor-service.js';
import { WEBHOOK_SECRET_HOSTS, type WebhookSecrets } from './monitor/index.js';
import { type RequestLimits, requestLimitServerOptions } from './http/request-limits.js';
import { installAccessLog } from './http/access-log.js';
import { registerMetricsRoutes } from './metrics/metrics-routes.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { installSecurity, isAuthEnabled } from './security/install-security.js';
import { REQUEST_GRACE_MS, SHUTDOWN_BUDGET_MS, settlesBefore } from './shutdown-deadline.js';
import { ensureSampleRepository } from './sample-repo/sample-repository.js';
import { type ServerEncryption, loadServerEncryption, registerEncryptionRoutes } from './encryption/index.js';
import { OperatorConsole, reserveConsolePrefix } from './console/index.js';
import { readOverrides, withOverrides } from './environment/property-overrides.js';
import { MultiLabelFinder } from './environment/multi-label-finder.js';
import { openRepositories } from './repositories/open-repositories.js';
import type { RepositoryRouter } from './repositories/repository-router.js';

const GIT = 'spring.cloud.config.server.git';

export interface ConfigServer {
  readonly app: FastifyInstance;
  /** Every repository served (default, repos.*, placeholder-made); requests are routed through it. */
  readonly repositories: RepositoryRouter;
  /** The default repository's mirror; undefined when its uri has placeholders (then there is one per application). */
  readonly mirror: GitMirror | undefined;
  /** The default repository's environments (same condition). */
  readonly environments: EnvironmentService | undefined;
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

export interface ConfigServerDependencies {
  settings: Settings;
  logger: Logger;
  /** Working directory for relative paths and the embedded sample (default process.cwd()). */
  cwd?: string;
}

export async function createConfigServer({
  settings,
  logger,
  cwd = process.cwd(),
}: ConfigServerDependencies): Promise<ConfigServer> {
  let uri = settings.optionalString(`${GIT}.uri`);
  // The native backend serves folders: no Git uri, so no sample repository either.
  if (uri === undefined && !settings.list('spring.profiles.active').includes('native')) {
    const sample = await ensureSampleRepository(resolve(cwd, '.confbus/sample-config-repo'));
    logger.info(
      { path: sample.path, created: sample.created },
      `No ${GIT}.uri set: serving the embedded sample repository`,
    );
    uri = sample.path;
  }
  uri ??= 'native';
  const displayUri = maskUriUserInfo(uri);
  const encryptionLogger = logger.child({ component: 'encryption' });
  const encryption = await loadServerEncryption(settings, cwd, encryptionLogger);
  const { decryptor } = encryption;
  const parser = new ConfigFileParser({ maxFileBytes: settings.number('confbus.server.max-file-bytes') });
  const overrides = readOverrides(settings);
  const { router: repositories, basedir } = openRepositories({
    settings,
    uri,
    cwd,
    parser,
    transform:
      decryptor || Object.keys(overrides).length > 0
        ? async (env) => withOverrides(decryptor ? await decryptor.decrypt(env) : env, overrides)
        : undefined,
    logger,
  });
  // The console and the webhook work on one Git mirror: the default repository, unless it is native or a template.
  const defaultMirror = repositories.defaultRepository?.mirror;
  const mirror = defaultMirror instanceof GitMirror ? defaultMirror : undefined;
  const finder = new MultiLabelFinder(repositories, {
    continueOnFailure: settings.boolean(`${GIT}.continue-on-multiple-label-failure`),
    logger,
  });
  const environments = repositories.defaultRepository?.environments;

  const limits: RequestLimits = {
    maxUrlLength: settings.number('confbus.server.max-url-length'),
    maxBodyBytes: settings.number('confbus.server.max-body-bytes'),
    maxHeaderBytes: settings.number('confbus.server.max-header-bytes'),
  };
  // The default repository's health; without a mirror (the native backend) its first repository's.
  const defaultHealth = (): MirrorHealth =>
    mirror?.health() ??
    Object.values(repositories.health())[0] ?? { uri, available: true, stale: false, checks: 0, fetches: 0 };
  const build = readBuildInfo();
  const metrics = new ServerMetrics({
    build,
    git: defaultHealth,
    environments: repositories,
    bus: () => bus,
  });
  // Repeated environment URLs skip fastify (see repeat-request-fast-path.ts); not with auth on, so that
  // every request keeps going through the credentials check.
  const accessLog = settings.boolean('confbus.logging.access-log');
  const fastPath =
    isAuthEnabled(settings) || accessLog
      ? undefined
      : new RepeatRequestFastPath(finder, {
          answered: (route, status, seconds) =>
            metrics.observeRequest({ method: 'GET', route, status, seconds }),
        });
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    serverFactory: (fastifyHandler) => {
      const server = createServer({ maxHeaderSize: limits.maxHeaderBytes }, (req, res) => {
        if (!fastPath?.handle(req, res, fastifyHandler)) fastifyHandler(req, res);
      });
      server.keepAliveTimeout = 72_000; // fastify's default, which it sets only on servers it creates
      return server;
    },
    // Per-request log lines would dominate the cost of a cache hit; metrics and errors are logged instead.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: it showed in the cached-path profile, and request logging is off anyway.
    childLoggerFactory: (parent) => parent,
    ...requestLimitServerOptions(limits),
  });
  installErrorHandling(app, limits.maxUrlLength);
  const showHealthDetails = installSecurity(app, settings);
  registerMetricsRoutes(app, metrics);
  if (accessLog) installAccessLog(app, logger);

  const trackerLimits = {
    maxEvents: settings.number('confbus.server.refresh-events.max-events'),
    maxAcksPerEvent: settings.number('confbus.server.refresh-events.max-acks-per-event'),
    maxBytes: settings.number('confbus.server.refresh-events.max-bytes'),
  };
  const tracker = new RefreshTracker(logger.child({ component: 'bus' }), trackerLimits);
  let bus: BusNode | undefined;
  const refreshRate = settings.number(`${GIT}.refresh-rate`);
  // The console browses one repository: the default one, which has no single mirror when its uri is a template.
  const operatorConsole =
    settings.boolean('confbus.console.enabled') && mirror && environments
      ? new OperatorConsole({
          mirror,
          gitDir: basedir,
          environments,
          tracker,
          displayUri,
          searchPaths: settings.list(`${GIT}.search-paths`),
          maxProfiles: settings.number('confbus.server.max-profiles'),
          busEnabled: isBusEnabled(settings),
          authEnabled: isAuthEnabled(settings),
          // refresh-rate < 0 means "never check upstream": an open console does not override that.
          watchIntervalSeconds: refreshRate < 0 ? 0 : settings.number('confbus.console.watch-interval'),
          presenceIntervalSeconds: settings.number('confbus.console.presence-interval'),
          maxEventStreams: settings.number('confbus.console.max-event-streams'),
          logger: logger.child({ component: 'console' }),
        })
      : undefined;
  if (operatorConsole && mirror) {
    mirror.on('fetched', ({ changed }) => void operatorConsole.repositoryChecked(changed));
    const checked = () => void operatorConsole.repositoryChecked(false);
    mirror.on('stale', checked).on('recovered', checked);
  }
  const secrets: WebhookSecrets = {};
  for (const host of WEBHOOK_SECRET_HOSTS) {
    const secret = settings.optionalString(`confbus.monitor.${host}.secret`);
    if (secret !== undefined) secrets[host] = secret;
  }
  // /monitor re-reads the default repository; with only per-application (uri template) repositories it is absent.
  if (mirror) {
    const monitor = new MonitorService({
      repository: mirror,
      parser,
      publisher: {
        publishRefresh: async (destination, configVersion) => {
          const event = await requireBus().publishRefresh(destination, configVersion);
          operatorConsole?.refreshPublished(event);
          return event;
        },
      },
      busEnabled: isBusEnabled(settings),
      published: tracker,
      secrets,
      requireSignature: settings.boolean('confbus.monitor.require-signature'),
      allowUnsigned: settings.boolean('confbus.monitor.allow-unsigned'),
      maxFiles: settings.number('confbus.monitor.max-files'),
      logger: logger.child({ component: 'monitor' }),
    });
    registerMonitorRoutes(app, { service: monitor, tracker, maxAcksPerEvent: trackerLimits.maxAcksPerEvent });
  }
  const requireBus = (): BusNode => {
    if (!bus) throw new Error('The bus is not started');
    return bus;
  };

  registerHealthRoutes(app, {
    settings: readHealthSettings(settings),
    showDetails: showHealthDetails,
    git: defaultHealth,
    repositories: () => repositories.health(),
    components: (): Record<string, ComponentHealth> =>
      bus
        ? {
            bus: {
              status: bus.connected ? 'UP' : 'DOWN',
              details: { id: bus.busId, ...bus.transportDetails },
            },
          }
        : {},
  });
  registerActuatorRoutes(app, build);
  registerEncryptionRoutes(app, { locator: encryption.locator, logger: encryptionLogger });
  registerEnvironmentRoutes(app, {
    service: finder,
    resources: repositories,
    decryptResource: plainTextDecryptor(settings, encryption.locator, decryptor !== undefined),
    maxProfiles: settings.number('confbus.server.max-profiles'),
    ...(fastPath ? { fastPath } : {}),
  });
  reserveConsolePrefix(app);
  await operatorConsole?.register(app);

  const server: ConfigServer = {
    app,
    repositories,
    mirror,
    environments,
    tracker,
    encryption,
    console: operatorConsole,
    fastPath,
    get bus() {
      return bus;
    },
    async listen() {
      // basedir is checked before anything else: a wrong one stops the start (naming the setting).
      await repositories.open().catch(async (error: unknown) => {
        await server.close();
        throw error;
      });
      // The port opens at once, even while a large first clone runs (health reports the repository as not
      // yet available meanwhile). With clone-on-start a clone that fails still fails the start, as in Spring.
      const cloned = repositories.startCloning((name, error) =>
        logger.warn(
          { err: error, repository: name },
          'Initial clone failed; will retry on the first request',
        ),
      );
      const address = await app.listen({
        port: settings.number('server.port'),
        host: settings.string('server.address'),
      });
      if (isBusEnabled(settings)) {
        const port = new URL(address).port;
        const busId =
          readBusMemberSettings(settings).id ??
          defaultBusId({ applicationName: settings.string('spring.application.name'), port });
        // The server publishes refreshes and collects acks; it has nothing of its own to refresh, so it sends no acks.
        bus = new BusNode({
          ...busNodeOptionsFromSettings(settings, { busId, logger: logger.child({ component: 'bus' }) }),
          ackEnabled: false,
        });
        // Refreshes other config servers announced (they carry the commit): with several servers behind one
        // bus, each lists every refresh and, bound with `#`, every ack, so their refresh-events agree.
        bus.on('observed', (event) => {
          if (event.configVersion !== undefined) tracker.published(event, event.configVersion);
        });
        bus.on('ack', (ack) => {
          tracker.acked(ack);
          operatorConsole?.acked(ack);
        });
        if (operatorConsole) {
          bus.on('other', (event) => operatorConsole.busEvent(event));
          const connected = () => operatorConsole.busConnected();
          bus.on('connected', connected).on('reconnected', connected);
        }
        await bus.start();
        operatorConsole?.busStarted(bus);
      }
      // The start-up summary: what runs and with which settings (non-default ones, secrets masked).
      logger.info(
        { version: build.version, uri: displayUri, basedir, settings: effectiveSettings(settings) },
        `Config server listening on ${address}`,
      );
      const cloneFailure = await cloned;
      if (cloneFailure !== undefined) {
        await server.close();
        throw cloneFailure;
      }
      return address;
    },
    async close() {
      const start = performance.now();
      const deadline = start + SHUTDOWN_BUDGET_MS;
      operatorConsole?.close();
      // Requests in flight get a grace period; then their connections are dropped.
      if (!(await settlesBefore(app.close(), start + REQUEST_GRACE_MS))) {
        logger.warn('Requests still running at shutdown: their connections are closed');
        app.server.closeAllConnections();
      }
      tracker.close();
      const steps = [bus?.close(), repositories.close(), parser.close()];
      const settled = await Promise.all(steps.map((step) => settlesBefore(step, deadline)));
      if (settled.includes(false)) logger.warn('Shutdown did not finish in time; exiting anyway');
    },
  };
  return server;
}
