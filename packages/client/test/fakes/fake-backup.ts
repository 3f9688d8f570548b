import type { Environment } from '@confbus/core';
import type { EnvironmentBackup } from '../../src/backup/backup-store.js';

/** Stands in for the backup file: remembers what was saved. */
export class FakeBackup implements EnvironmentBackup {
  readonly saved: Environment[] = [];

  async save(env: Environment): Promise<void> {
    this.saved.push(env);
  }
}
