/**
 * Builds the repository router from settings: a GitMirror and an EnvironmentService per repository (each with
 * its own cache and its own coalesced upstream checks), sharing the parser and the decryptor.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Environment, type Settings, maskUriUserInfo } from '@confbus/core';
import type { Logger } from 'pino';
import type { ConfigFileParser } from '../environment/config-file-parser.js';
import { EnvironmentService } from '../environment/environment-service.js';
import { GitMirror } from '../git/index.js';
import {
  GIT,
  type RepositoryDefinition,
  defaultRepositoryDefinition,
  namedRepositoryDefinitions,
} from './repository-definitions.js';
import { RepositoryRouter } from './repository-router.js';
import type { OpenRepository, ServedMirror, ServedRepository } from './served-repository.js';
import { NativeRepository } from '../native/native-repository.js';

const NATIVE = 'spring.cloud.config.server.native';

export interface RepositoryDependencies {
  settings: Settings;
  /** The default repository's uri (the embedded sample's path when none is configured). */
  uri: string;
  cwd: string;
  parser: ConfigFileParser;
  transform: ((environment: Environment) => Promise<Environment>) | undefined;
  logger: Logger;
}

export function openRepositories(dependencies: RepositoryDependencies): {
  router: RepositoryRouter;
  /** Where the default repository's mirror lives. */
  basedir: string;
} {
  const { settings, uri, cwd, logger } = dependencies;
  const mirrorsDir = (key: string): string =>
    `.confbus/mirrors/${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
  const configuredBasedir = settings.optionalString(`${GIT}.basedir`);
  const basedir = resolve(cwd, configuredBasedir ?? mirrorsDir(uri));
  const native = settings.list('spring.profiles.active').includes('native');
  const defaultRepository = native
    ? { ...defaultRepositoryDefinition(settings, 'native'), searchPaths: [] }
    : defaultRepositoryDefinition(settings, uri);
  const named = namedRepositoryDefinitions(settings, defaultRepository, (message) => logger.warn(message));
  if (native && named.length > 0) {
    logger.warn(`spring.profiles.active=native: ${GIT}.repos.* are ignored (one set of folders is served)`);
    named.length = 0;
  }

  const directoryOf = (definition: RepositoryDefinition, expandedUri: string): string => {
    if (definition === defaultRepository && expandedUri === uri) return basedir;
    const key = `${definition.name}\u0000${expandedUri}`;
    // Beside an explicit basedir (not inside it: that one is a bare repository of its own).
    return configuredBasedir === undefined
      ? resolve(cwd, mirrorsDir(key))
      : `${basedir}.repos/${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
  };

  const open: OpenRepository = (definition, expandedUri, name): ServedRepository => {
    if (native) return openNative(dependencies, name);
    const directory = directoryOf(definition, expandedUri);
    const mirror = new GitMirror({
      uri: expandedUri,
      basedir: directory,
      defaultLabel: definition.defaultLabel,
      refreshRateSeconds: definition.refreshRateSeconds,
      timeoutSeconds: definition.timeoutSeconds,
      username: definition.username,
      password: definition.password,
      tryMasterBranch: definition.tryMasterBranch,
      deleteUntrackedBranches: definition.deleteUntrackedBranches,
      skipSslValidation: definition.skipSslValidation,
      proxy: definition.proxy,
      ssh: definition.ssh,
      logger: logger.child({ component: 'git', repository: name }),
    });
    const environments = environmentsOf(
      dependencies,
      mirror,
      maskUriUserInfo(expandedUri),
      definition.searchPaths,
    );
    return {
      name,
      mirror,
      environments,
      async close(options) {
        await mirror.close();
        if (options?.removeFiles) await rm(directory, { recursive: true, force: true });
      },
    };
  };

  const router = new RepositoryRouter({
    defaultRepository,
    named,
    open,
    maxPlaceholderRepositories: settings.number('confbus.server.git.max-placeholder-repositories'),
    logger: logger.child({ component: 'repositories' }),
  });
  return { router, basedir };
}

function environmentsOf(
  { settings, parser, transform }: RepositoryDependencies,
  repository: ServedMirror,
  displayUri: string,
  searchPaths: readonly string[],
): EnvironmentService {
  return new EnvironmentService({
    repository,
    displayUri,
    searchPaths,
    maxCacheEntries: settings.number('confbus.server.cache.max-entries'),
    maxCacheBytes: settings.number('confbus.server.cache.max-bytes'),
    maxEnvironmentBytes: settings.number('confbus.server.max-environment-bytes'),
    parser,
    acceptEmpty: settings.boolean('spring.cloud.config.server.accept-empty'),
    ...(transform ? { transform } : {}),
  });
}

/** The native backend: the folders of spring.cloud.config.server.native.search-locations. */
function openNative(dependencies: RepositoryDependencies, name: string): ServedRepository {
  const { settings, cwd, logger } = dependencies;
  const repository = new NativeRepository({
    searchLocations: settings.list(`${NATIVE}.search-locations`),
    defaultLabel: settings.string(`${NATIVE}.default-label`),
    addLabelLocations: settings.boolean(`${NATIVE}.add-label-locations`),
    cwd,
    warn: (message) => logger.warn(message),
  });
  const environments = environmentsOf(dependencies, repository, 'native', repository.searchPaths());
  return { name, mirror: repository, environments, close: () => repository.close() };
}
