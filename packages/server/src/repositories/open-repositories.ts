/**
 * The repositories served: `openRepositories` puts an EnvironmentService (its own cache, its own coalesced
 * upstream checks) in front of whatever store the `OpenMirror` port yields (repository-stores.ts builds the real
 * ones; a test's fake does too), sharing the parser, the decryptor and the caches, behind one RepositoryRouter.
 */
import { type Environment, type Logger, maskUriUserInfo } from '@confbus/core';
import type { ConfigFileParser } from '../environment/config-file-parser.js';
import type { ConfigRepository } from '../environment/config-repository.js';
import type { BuildGate } from '../environment/build-gate.js';
import type { EnvironmentCaches } from '../environment/environment-caches.js';
import type { EnvironmentSettings } from '../environment/environment-settings.js';
import type { EnvironmentWorkers } from '../environment/environment-workers.js';
import { EnvironmentService } from '../environment/environment-service.js';
import { CompositeRepository } from '../composite/composite-repository.js';
import type { RepositorySettings } from './repository-settings.js';
import { RepositoryRouter } from './repository-router.js';
import type { OpenedMember, OpenedMirror, OpenMirror } from './repository-stores.js';
import type { OpenRepository, ServedRepository } from './served-repository.js';

export interface RepositoryDependencies {
  repositories: RepositorySettings;
  environment: EnvironmentSettings;
  /** The default repository's uri. */
  uri: string;
  openMirror: OpenMirror;
  parser: ConfigFileParser;
  /** One for all repositories: the builds of every environment service share it. */
  buildGate: BuildGate;
  /** The server's environment and parsed-file caches, shared by every repository. */
  caches: EnvironmentCaches;
  /** The worker threads that parse files and render large environments. */
  workers: EnvironmentWorkers;
  transform: ((environment: Environment) => Promise<Environment>) | undefined;
  logger: Logger;
}

/** The router over every configured repository (default, repos.*, placeholder-made ones). */
export function openRepositories(dependencies: RepositoryDependencies): RepositoryRouter {
  const { repositories, uri, openMirror, logger } = dependencies;
  for (const warning of repositories.warnings) logger.warn({}, warning);
  const defaultRepository = { ...repositories.defaultRepository, uri };
  const open: OpenRepository = (definition, expandedUri, name): ServedRepository => {
    const opened = openMirror(definition, expandedUri, name);
    if (opened.composite) return servedComposite(dependencies, name, opened, opened.composite);
    return {
      name,
      mirror: opened.mirror,
      environments: environmentsOf(
        dependencies,
        opened.mirror,
        opened.displayUri ?? maskUriUserInfo(expandedUri),
        opened.searchPaths ?? definition.searchPaths,
      ),
      close: (options) => opened.close(options),
    };
  };
  return new RepositoryRouter({
    defaultRepository,
    named: [...repositories.named],
    open,
    maxPlaceholderRepositories: repositories.maxPlaceholderRepositories,
    logger: logger.child({ component: 'repositories' }),
  });
}

/** A composite: each member behind its own environment service (all sources, no decryption: the composite's does). */
function servedComposite(
  dependencies: RepositoryDependencies,
  name: string,
  opened: OpenedMirror,
  { members, failOnError }: { members: readonly OpenedMember[]; failOnError: boolean },
): ServedRepository {
  const memberDependencies = {
    ...dependencies,
    environment: { ...dependencies.environment, acceptEmpty: true },
    transform: undefined,
  };
  const mirror = new CompositeRepository({
    members: members.map((member) => ({
      name: member.name,
      repository: member.opened.mirror,
      environments: environmentsOf(
        memberDependencies,
        member.opened.mirror,
        member.displayUri,
        member.searchPaths,
      ),
      close: () => member.opened.close(),
    })),
    failOnError,
    logger: dependencies.logger.child({ component: 'composite' }),
  });
  return {
    name,
    mirror,
    environments: environmentsOf(dependencies, mirror, 'composite', []),
    close: () => opened.close(),
  };
}

function environmentsOf(
  { environment, parser, buildGate, caches, workers, transform }: RepositoryDependencies,
  repository: ConfigRepository,
  displayUri: string,
  searchPaths: readonly string[],
): EnvironmentService {
  return new EnvironmentService({
    repository,
    displayUri,
    searchPaths,
    caches,
    workers,
    maxEnvironmentBytes: environment.maxEnvironmentBytes,
    parser,
    buildGate,
    acceptEmpty: environment.acceptEmpty,
    ...(transform ? { transform } : {}),
  });
}
