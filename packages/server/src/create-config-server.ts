/**
 * The composition root of the config server: reads the settings once (resolveServerConfig), builds the real adapters (the Git mirrors or the
 * native folders, the bus, the encryption key, the system clock) and hands them to wireConfigServer, which builds
 * the environment service and the HTTP routes on them. Nothing else in the server `new`s an adapter.
 */
import { resolve } from 'node:path';
import type { Logger, Settings } from '@confbus/core';
import type { Logger as PinoLogger } from 'pino';
import { auditSinkTo } from './audit/audit-writer.js';
import { busFromSettings } from './bus/server-bus.js';
import { systemClock } from './clock.js';
import { loadServerEncryption } from './encryption/index.js';
import { ServerTls } from './http/tls/server-tls.js';
import { mirrorsFromSettings } from './repositories/repository-stores.js';
import { ensureSampleRepository } from './sample-repo/sample-repository.js';
import { type RepositorySource, repositorySourceOf } from './settings/repository-source.js';
import { resolveServerConfig } from './server-config.js';
import { ServerOwnFiles } from './settings/server-own-files.js';
import { SAMPLE_REPOSITORY } from './settings/source-settings.js';
import { type ConfigServer, wireConfigServer } from './wire-config-server.js';

export type { ConfigServer, ConfigServerPorts } from './wire-config-server.js';

export interface ConfigServerDependencies {
  settings: Settings;
  /** pino's (loggerFromSettings makes one): fastify writes its own lines through it too. */
  logger: PinoLogger;
  /** Working directory for relative paths and the embedded sample (default process.cwd()). */
  cwd?: string;
}

export async function createConfigServer({
  settings,
  logger,
  cwd = process.cwd(),
}: ConfigServerDependencies): Promise<ConfigServer> {
  // Settings are checked (a bad one throws naming it) before anything is made on disk.
  // Which repository adapter to build is the root's choice; everything else is read for the wiring below.
  const source = repositorySourceOf(settings);
  const config = resolveServerConfig(settings);
  const encryption = await loadServerEncryption(
    config.encryption,
    cwd,
    logger.child({ component: 'encryption' }),
  );
  const busSettings = config.bus.bus;
  const bus = busSettings
    ? busFromSettings(busSettings, config.bus.applicationName, logger.child({ component: 'bus' }))
    : undefined;
  const tls = config.tls && (await ServerTls.load(config.tls, cwd, logger.child({ component: 'tls' })));
  const uri = await defaultRepositoryUri(source, logger, cwd);
  // Known once, before anything is served: no backend ever serves these (its settings file, its key store).
  const ownFiles = await ServerOwnFiles.of(settings, cwd);
  if (ownFiles.paths.length > 0)
    logger.info({ files: ownFiles.paths }, "The server's own settings files are never served");
  const { openMirror, basedir } = mirrorsFromSettings({
    repositories: config.repositories,
    native: config.native,
    database: config.database,
    composite: config.composite,
    uri,
    cwd,
    // The embedded sample lives in the working directory (`npm start`); its mirror stays beside it.
    ...(source.kind === 'sample' ? { mirrorsHome: resolve(cwd, '.confbus/mirrors') } : {}),
    ownFiles,
    logger,
  });
  return wireConfigServer({
    config,
    logger,
    clock: systemClock,
    uri,
    openMirror,
    bus,
    encryption,
    basedir,
    tls,
    auditSink: config.audit.enabled ? auditSinkTo(config.audit.file, cwd, logger) : undefined,
  });
}

/** The default repository's uri: the configured one, 'native' for folders, or the embedded sample's path. */
async function defaultRepositoryUri(source: RepositorySource, logger: Logger, cwd: string): Promise<string> {
  if (source.kind === 'git') return source.uri;
  if (source.kind === 'native') return 'native';
  if (source.kind === 'database') return source.profile;
  const sample = await ensureSampleRepository(resolve(cwd, '.confbus/sample-config-repo'));
  logger.info(
    { path: sample.path, created: sample.created },
    `${SAMPLE_REPOSITORY}=true: serving the embedded sample repository`,
  );
  return sample.path;
}
