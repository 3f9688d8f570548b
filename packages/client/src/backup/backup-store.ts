/**
 * The last-known-good backup as the client uses it (file format: backup-file.ts): saved after every fetch
 * that succeeded, read at start-up when no config server answered. Failures are logged, never thrown: a
 * backup that cannot be written must not fail a refresh.
 */
import type { Environment, Logger } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { deriveSealingKey, readBackup, writeBackup, type SealingKey } from './backup-file.js';
import type { ClientSettings } from '../client-settings.js';

/** What the refresh logic needs of the backup (tests hand in a fake). */
export interface EnvironmentBackup {
  save(env: Environment): Promise<void>;
}

export class BackupStore implements EnvironmentBackup {
  #warnedOmittedSecrets = false;
  /** Derived on the first save, then reused: deriving costs tens of ms of CPU, too much for every refresh. */
  #sealingKey: Promise<SealingKey> | undefined;

  constructor(
    private readonly settings: ClientSettings['backup'],
    private readonly logger: Logger,
  ) {}

  async save(env: Environment): Promise<void> {
    const { file, key, plaintextSecrets } = this.settings;
    if (!file) return;
    try {
      if (key) this.#sealingKey ??= deriveSealingKey(key);
      const sealingKey = key ? await this.#sealingKey : undefined;
      const { omittedSecrets } = await writeBackup(file, env, { key: sealingKey, plaintextSecrets });
      if (omittedSecrets > 0 && !this.#warnedOmittedSecrets) {
        this.#warnedOmittedSecrets = true;
        this.logger.warn(
          {},
          `Backup ${file}: ${omittedSecrets} secret value(s) left out; set confbus.client.backup.key to encrypt them`,
        );
      }
    } catch (error) {
      this.logger.warn({}, `Could not write the configuration backup ${file}: ${messageOf(error)}`);
    }
  }

  /**
   * What `use` makes of the saved environment (the client: its snapshot), or undefined, logged why, when there
   * is no backup or it cannot be used (unreadable, or `use` throws: a `{cipher}` value that does not decrypt).
   */
  async restore<T>(use: (env: Environment) => T): Promise<T | undefined> {
    const { file, key } = this.settings;
    if (!file) return undefined;
    try {
      const backup = await readBackup(file, key);
      for (const warning of backup.warnings) this.logger.warn({}, `Backup ${file}: ${warning}`);
      this.logger.warn(
        {},
        `Starting from the last-known-good configuration backup ${file} (saved ${backup.savedAt}, version ${backup.environment.version ?? 'none'})`,
      );
      return use(backup.environment);
    } catch (error) {
      this.logger.warn({}, `Cannot use the configuration backup ${file}: ${messageOf(error)}`);
      return undefined;
    }
  }
}
