/**
 * Environments built outside a running server exactly as the server builds them, by the same EnvironmentService
 * (search paths, file order, imports, profiles, limits), with the server's default limits: for `confbus check`,
 * which validates configuration before any server announces it. No decryption or overrides are applied: a check
 * judges what the repository holds.
 */
import type { ConfigDocument, Environment } from '@confbus/core';
import { resolveServerSettings } from '../server-settings.js';
import { ConfigFileParser } from './config-file-parser.js';
import type { RepositoryFiles } from './config-repository.js';
import { EnvironmentCaches } from './environment-caches.js';
import { EnvironmentService, environmentRequest } from './environment-service.js';
import { EnvironmentWorkers } from './environment-workers.js';
import { type EnvironmentSettings, readEnvironmentSettings } from './environment-settings.js';

export interface OfflineEnvironmentsOptions {
  repository: RepositoryFiles;
  /** Prefix of the property-source names: `<displayUri>/<path>`. */
  displayUri: string;
  /** As spring.cloud.config.server.git.search-paths. */
  searchPaths: readonly string[];
}

export interface OfflineEnvironments {
  /** The environment of applications and profiles at a revision (a commit id, or the repository's own label). */
  find(applications: readonly string[], profiles: readonly string[], revision: string): Promise<Environment>;
  /** Directories searched for an application at a revision, and every file present there. */
  searchDirectories(
    applications: readonly string[],
    profiles: readonly string[],
    revision: { commit: string; label: string },
  ): Promise<{ directories: string[]; present: ReadonlySet<string> }>;
  /** A file's documents at a commit, parsed through the cache the builds use (none when it is absent). */
  documents(commit: string, path: string): Promise<readonly ConfigDocument[]>;
  close(): Promise<void>;
}

export function openOfflineEnvironments(options: OfflineEnvironmentsOptions): OfflineEnvironments {
  const limits = serverDefaults();
  const workers = new EnvironmentWorkers();
  const service = new EnvironmentService({
    repository: options.repository,
    displayUri: options.displayUri,
    searchPaths: options.searchPaths,
    caches: new EnvironmentCaches(limits.cache),
    workers,
    maxEnvironmentBytes: limits.maxEnvironmentBytes,
    parser: new ConfigFileParser({ ...limits.files, workers }),
    // An application with no file of its own still gets application.yml: every application is checked.
    acceptEmpty: true,
  });
  return {
    async find(applications, profiles, revision) {
      return (await service.find(environmentRequest(applications, profiles, revision))).resolved.environment;
    },
    searchDirectories: (applications, profiles, revision) =>
      service.searchDirectories(environmentRequest(applications, profiles, revision.label), revision),
    documents: async (commit, path) => (await service.files.readOne(commit, path)).documents,
    close: () => workers.close(),
  };
}

/** The server's environment settings at their defaults (the limits a server started without settings has). */
function serverDefaults(): EnvironmentSettings {
  return readEnvironmentSettings(resolveServerSettings({ args: [], env: {} }));
}
