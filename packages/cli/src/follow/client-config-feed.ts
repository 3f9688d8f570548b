/**
 * The config client as a ConfigFeed: `ConfigClient.start` fetches (with its retry, fail-fast and backup rules,
 * decrypting `{cipher}` values), and each refresh it applies — from the bus, the watch stream when there is no
 * bus (run-command-watch.test.ts), the safety-net poll — is passed on. A refresh that failed to fetch, parse or decrypt is never applied by the client, so never passed on.
 * Unlike an application, `run` and `render` refuse to start on local settings alone: a child started without
 * its configuration would do harm quietly.
 */
import { ConfigClient, ConfigClientError, clientSettingSpecs } from '@confbus/client';
import { type Logger, resolveSettings } from '@confbus/core';
import { loggerFromSettings } from '@confbus/core/logging';
import { readSettingsFile } from '../settings-file.js';
import type { ConfigFeed, ConfigFeedListener, ConfigState } from './config-feed.js';

export interface ClientFeedSources {
  /** Settings as `--key=value` arguments. */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** The `name` of the log lines (`confbus-run`). */
  readonly name: string;
  /** What the configuration is for, in the refusal message (`python3`, `nginx.conf`). */
  readonly purpose: string;
}

/**
 * Layers that are not configuration to hand on: the client's own settings, and its `config.client.version`
 * (which moves with every commit to the repository, whichever file it touched: exported, it would restart
 * every child on every push). ConfigState.version carries it.
 */
const LAYERS_NOT_HANDED_ON = new Set([
  'localSettings',
  'localSettings:file',
  'localSettings:defaults',
  'configClient',
]);

export class ClientConfigFeed implements ConfigFeed {
  #current: ConfigState;

  private constructor(
    private readonly client: ConfigClient,
    readonly logger: Logger,
  ) {
    this.#current = stateOf(client);
  }

  /**
   * Starts the client; its log lines go to standard error, so a child's standard output stays its own. Rejects
   * when the client has no configuration to give (server unreachable and no backup).
   */
  static async start(sources: ClientFeedSources): Promise<ClientConfigFeed> {
    const { args, env, cwd } = sources;
    const settings = resolveSettings(
      clientSettingSpecs,
      { args, env, file: readSettingsFile(args, env, cwd) },
      { unknownKeys: 'keep' },
    );
    const logger = loggerFromSettings(settings, { name: sources.name, destination: process.stderr });
    const client = await ConfigClient.start({ args, env, cwd, logger });
    if (client.status.source === 'local') {
      await client.close();
      throw new ConfigClientError(
        'CONFBUS_CONFIG_FETCH',
        `No configuration for ${sources.purpose}: the config server could not be reached and there is no ` +
          'backup (confbus.client.backup.file); not starting on local settings alone',
      );
    }
    return new ClientConfigFeed(client, logger);
  }

  get current(): ConfigState {
    return this.#current;
  }

  follow(listener: ConfigFeedListener): void {
    this.client.on('refresh', (event) => {
      if (event.keys.length === 0) return;
      this.#current = stateOf(this.client);
      listener.changed(this.#current);
    });
    this.client.on('shutdown', () => listener.shutdownRequested());
    // A failed refresh is logged by the client ("Refresh failed, keeping the current configuration"); the
    // listener makes the client not throw from emit('error').
    this.client.on('error', () => undefined);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

function stateOf(client: ConfigClient): ConfigState {
  const view = client.view();
  const keys = new Set<string>();
  for (const layer of client.propertySources()) {
    if (LAYERS_NOT_HANDED_ON.has(layer.name)) continue;
    for (const key of layer.properties.keys()) keys.add(key);
  }
  const { version, source } = client.status;
  return { version, source, keys: [...keys], view };
}
