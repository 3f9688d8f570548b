/**
 * The composition root of the config server: reads settings, builds the git mirror, the environment service
 * and the HTTP routes, and wires them together. Nothing else in the server `new`s a collaborator.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { type Settings, maskUriUserInfo } from '@confbus/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import { EnvironmentService } from './environment/environment-service.js';
import { registerEnvironmentRoutes } from './environment/environment-controller.js';
import { GitMirror } from './git/index.js';
import { registerHealthRoutes } from './health/health-controller.js';
import { installErrorHandling } from './http/error-handler.js';
import { type RequestLimits, requestLimitServerOptions } from './http/request-limits.js';
import { registerMetricsRoutes } from './metrics/metrics-routes.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { installSecurity } from './security/install-security.js';
import { ensureSampleRepository } from './sample-repo/sample-repository.js';

const GIT = 'spring.cloud.config.server.git';

export interface ConfigServer {
  readonly app: FastifyInstance;
  readonly mirror: GitMirror;
  readonly environments: EnvironmentService;
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
  if (uri === undefined) {
    const sample = await ensureSampleRepository(resolve(cwd, '.confbus/sample-config-repo'));
    logger.info(
      { path: sample.path, created: sample.created },
      `No ${GIT}.uri set: serving the embedded sample repository`,
    );
    uri = sample.path;
  }
  const displayUri = maskUriUserInfo(uri);
  const basedir = resolve(
    cwd,
    settings.optionalString(`${GIT}.basedir`) ??
      `.confbus/mirrors/${createHash('sha256').update(uri).digest('hex').slice(0, 16)}`,
  );

  const mirror = new GitMirror({
    uri,
    basedir,
    defaultLabel: settings.string(`${GIT}.default-label`),
    refreshRateSeconds: settings.number(`${GIT}.refresh-rate`),
    timeoutSeconds: settings.number(`${GIT}.timeout`),
    username: settings.optionalString(`${GIT}.username`),
    password: settings.optionalString(`${GIT}.password`),
    logger: logger.child({ component: 'git' }),
  });

  const environments = new EnvironmentService({
    repository: mirror,
    displayUri,
    searchPaths: settings.list(`${GIT}.search-paths`),
    maxCacheEntries: settings.number('confbus.server.cache.max-entries'),
    acceptEmpty: settings.boolean('spring.cloud.config.server.accept-empty'),
  });

  const limits: RequestLimits = {
    maxUrlLength: settings.number('confbus.server.max-url-length'),
    maxBodyBytes: settings.number('confbus.server.max-body-bytes'),
    maxHeaderBytes: settings.number('confbus.server.max-header-bytes'),
  };
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Per-request log lines would dominate the cost of a cache hit; metrics and errors are logged instead.
    logController: new LogController({ disableRequestLogging: true }),
    ...requestLimitServerOptions(limits),
  });
  installErrorHandling(app, limits);
  installSecurity(app, settings);
  registerMetricsRoutes(app, new ServerMetrics({ git: () => mirror.health(), environments }));
  registerHealthRoutes(app, { git: () => mirror.health() });
  registerEnvironmentRoutes(app, {
    service: environments,
    maxProfiles: settings.number('confbus.server.max-profiles'),
  });

  return {
    app,
    mirror,
    environments,
    async listen() {
      if (settings.boolean(`${GIT}.clone-on-start`)) await mirror.start();
      else
        void mirror
          .start()
          .catch((error: unknown) =>
            logger.warn({ err: error }, 'Initial clone failed; will retry on the first request'),
          );
      const address = await app.listen({
        port: settings.number('server.port'),
        host: settings.string('server.address'),
      });
      logger.info({ uri: displayUri, basedir }, `Config server listening on ${address}`);
      return address;
    },
    async close() {
      await app.close();
      await mirror.close();
    },
  };
}
