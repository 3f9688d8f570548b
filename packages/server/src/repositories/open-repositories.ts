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
import type { OpenRepository, ServedRepository } from './served-repository.js';

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
  const defaultRepository = defaultRepositoryDefinition(settings, uri);
  const named = namedRepositoryDefinitions(settings, defaultRepository, (message) => logger.warn(message));

  const directoryOf = (definition: RepositoryDefinition, expandedUri: string): string => {
    if (definition === defaultRepository && expandedUri === uri) return basedir;
    const key = `${definition.name}\u0000${expandedUri}`;
    // Beside an explicit basedir (not inside it: that one is a bare repository of its own).
    return configuredBasedir === undefined
      ? resolve(cwd, mirrorsDir(key))
      : `${basedir}.repos/${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
  };

  const open: OpenRepository = (definition, expandedUri, name): ServedRepository => {
    const directory = directoryOf(definition, expandedUri);
    const mirror = new GitMirror({
      uri: expandedUri,
      basedir: directory,
      defaultLabel: definition.defaultLabel,
      refreshRateSeconds: definition.refreshRateSeconds,
      timeoutSeconds: definition.timeoutSeconds,
      username: definition.username,
      password: definition.password,
      logger: logger.child({ component: 'git', repository: name }),
    });
    const environments = new EnvironmentService({
      repository: mirror,
      displayUri: maskUriUserInfo(expandedUri),
      searchPaths: definition.searchPaths,
      maxCacheEntries: settings.number('confbus.server.cache.max-entries'),
      maxCacheBytes: settings.number('confbus.server.cache.max-bytes'),
      maxEnvironmentBytes: settings.number('confbus.server.max-environment-bytes'),
      parser: dependencies.parser,
      acceptEmpty: settings.boolean('spring.cloud.config.server.accept-empty'),
      ...(dependencies.transform ? { transform: dependencies.transform } : {}),
    });
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
