/**
 * What `ConfigClient.start` does before the client exists: resolve the local settings, make the logger (and
 * say on it which environment variables look like mistyped settings), the decryptor, the environment source
 * and the backup, and fetch the first configuration — the server's, else the last-known-good backup, else the
 * local settings alone (with fail-fast, a failed fetch ends here). Then, once started, the start-up line.
 */
import { type Environment, type Logger, type Settings, maskUriUserInfo } from '@confbus/core';
import { effectiveSettings, messageOf } from '@confbus/core/internal';
import { loggerFromSettings } from '@confbus/core/logging';
import { BackupStore } from './backup/backup-store.js';
import { clientLogger, type ClientLogger } from './client-logger.js';
import { createClientDecryptor } from './snapshot/cipher-values.js';
import { readClientSettings, type ClientSettings } from './client-settings.js';
import { clientVersion } from './client-version.js';
import type { ConfigSnapshot, SnapshotMeta } from './snapshot/config-snapshot.js';
import { localLayers } from './snapshot/local-layers.js';
import { REMOTE_OVERRIDE_KEYS } from './snapshot/remote-placement.js';
import { loadClientTls } from './fetch/client-tls.js';
import { EnvironmentSource } from './fetch/environment-source.js';
import { ConfigClientError } from './errors.js';
import { LiveConfig } from './snapshot/live-config.js';
import { resolveLocalSettings, type LocalSettingsSources } from './local-settings.js';
import { SnapshotFactory } from './snapshot/snapshot-factory.js';

export interface ConfigClientOptions extends LocalSettingsSources {
  /**
   * Where the client logs; default: the server's pino logger (`@confbus/core/logging`) at `logging.level.root`,
   * JSON with ISO times, or pretty lines on a terminal (`confbus.logging.format`). Never secret values.
   */
  readonly logger?: Logger;
}

/** The parts the client is wired from. */
export interface ClientParts {
  readonly source: EnvironmentSource;
  readonly snapshots: SnapshotFactory;
  readonly backup: BackupStore;
  readonly live: LiveConfig;
}

export interface PreparedClient {
  readonly settings: ClientSettings;
  readonly localSettings: Settings;
  readonly logger: ClientLogger;
  readonly parts: ClientParts;
  /** The server's answer at start, undefined when the client started from a backup or local settings. */
  readonly fetched: Environment | undefined;
}

export async function prepareClient(options: ConfigClientOptions): Promise<PreparedClient> {
  const env = options.env ?? process.env;
  const localSettings = resolveLocalSettings(options, env);
  const settings = readClientSettings(localSettings);
  const logger = clientLogger(
    options.logger ?? loggerFromSettings(localSettings, { name: 'confbus-client' }),
  );
  // A SPRING_/CONFBUS_ variable that nearly spells a client setting: a typo, otherwise silently ignored.
  for (const warning of localSettings.warnings) logger.warn({}, warning);
  for (const key of REMOTE_OVERRIDE_KEYS) {
    const source = localSettings.sourceOf(key);
    if (source !== undefined && source !== 'default') {
      logger.warn(
        {},
        `${key} is set locally (${source}) and has no effect: as in Spring, only the remote configuration (the repository) can allow local values to override it`,
      );
    }
  }
  const cwd = options.cwd ?? process.cwd();
  const decryptor = await createClientDecryptor(settings, cwd, (message) => logger.warn({}, message));
  const snapshots = new SnapshotFactory(
    settings,
    localLayers(localSettings, env, options.defaults),
    decryptor,
  );
  const source = new EnvironmentSource(settings, logger, await loadClientTls(settings.tls, cwd));
  const backup = new BackupStore(settings.backup, logger);

  if (!settings.enabled) {
    logger.info(
      {},
      'spring.cloud.config.enabled=false: fetching nothing, serving local settings and defaults',
    );
    const live = new LiveConfig(snapshots.localOnly(), logger);
    return {
      settings,
      localSettings,
      logger,
      parts: { source, snapshots, backup, live },
      fetched: undefined,
    };
  }
  const fetched = await fetchAtStart(source, settings, logger).catch((error: unknown) => {
    source.close();
    throw error;
  });
  const initial = fetched
    ? snapshots.fromEnvironment(fetched, 'server')
    : ((await backup.restore((saved) => snapshots.fromEnvironment(saved, 'backup'))) ??
      startLocally(snapshots, logger));
  const live = new LiveConfig(initial, logger);
  return { settings, localSettings, logger, parts: { source, snapshots, backup, live }, fetched };
}

function startLocally(snapshots: SnapshotFactory, logger: Logger): ConfigSnapshot {
  logger.warn({}, 'Starting on local settings only');
  return snapshots.localOnly();
}

/** The first fetch: with fail-fast a failure ends start-up; without, the client starts from a backup or local settings. */
async function fetchAtStart(
  source: EnvironmentSource,
  settings: ClientSettings,
  logger: Logger,
): Promise<Environment | undefined> {
  try {
    return await source.fetchWithRetry();
  } catch (error) {
    const reason = messageOf(error);
    if (settings.failFast) {
      throw new ConfigClientError(
        'CONFBUS_FAIL_FAST',
        `Could not locate PropertySource and the fail fast property is set, failing: ${reason}`,
        { cause: error },
      );
    }
    logger.warn({}, `Could not locate PropertySource (${reason})`);
    return undefined;
  }
}

/**
 * The start-up summary, as the server writes one: the client's version, where its configuration came from,
 * the servers it asks, whether it is on the bus, and the settings not left at their defaults (secrets masked).
 */
export function logStarted(
  logger: Logger,
  client: {
    readonly settings: ClientSettings;
    readonly localSettings: Settings;
    readonly meta: SnapshotMeta;
    readonly bus: string;
  },
): void {
  const { meta } = client;
  const from =
    meta.source === 'server'
      ? `the config server at version ${meta.version ?? 'none'}`
      : meta.source === 'backup'
        ? 'the last-known-good backup'
        : 'local settings only';
  logger.info(
    {
      version: clientVersion(),
      application: meta.name,
      profiles: meta.profiles.join(','),
      label: meta.label,
      configVersion: meta.version,
      source: meta.source,
      uri: client.settings.uris.map((uri) => maskUriUserInfo(uri)),
      bus: client.bus,
      settings: effectiveSettings(client.localSettings),
    },
    `Config client started for ${meta.name} (profiles ${meta.profiles.join(',')}) from ${from}`,
  );
}
