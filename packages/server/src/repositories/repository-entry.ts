/**
 * One configured repository as the router tries it: a fixed mirror, or a uri template with its pool of mirrors
 * (placeholder-repositories.ts); which profiles to try in turn, a miss told from an answer, and Spring's
 * try-master-branch fallback for a `{label}` uri. Apart from repository-router.ts, which orders the entries and
 * passes a request along them.
 */
import { isConfbusError } from '@confbus/core';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import type { FoundEnvironment } from '../environment/environment-finder.js';
import { PlaceholderRepositories } from './placeholder-repositories.js';
import type { RepositoryDefinition } from './repository-settings.js';
import type { RepositoryRouterOptions } from './repository-router.js';
import { RepositoryPatterns } from './repository-patterns.js';
import { isUriTemplate } from './uri-template.js';
import type { ServedRepository } from './served-repository.js';

/** What to do with the environment found, in the repository that served it. */
export type UseEnvironment<T> = (served: ServedRepository, found: FoundEnvironment) => Promise<T>;

/** A configured repository: one fixed mirror, or a uri template with its pool of mirrors. */
export class RepositoryEntry {
  readonly fixed: ServedRepository | undefined;
  readonly pool: PlaceholderRepositories | undefined;
  readonly patterns: RepositoryPatterns;

  constructor(
    readonly definition: RepositoryDefinition,
    options: RepositoryRouterOptions,
  ) {
    this.patterns = new RepositoryPatterns(definition.patterns);
    if (isUriTemplate(definition.uri)) {
      this.pool = new PlaceholderRepositories(
        definition,
        options.open,
        options.maxPlaceholderRepositories,
        (name) =>
          options.logger.info({ repository: name }, 'Closed the least recently used placeholder mirror'),
      );
    } else {
      this.fixed = options.open(definition, definition.uri, definition.name);
    }
  }

  /**
   * The profiles to try one by one, in Spring's order (last first): a template makes one repository per
   * profile; a fixed repository is tried once, with the whole request.
   */
  attempts(request: EnvironmentRequest): string[] {
    if (this.fixed) return [request.profilesText];
    return [...(request.profiles.length === 0 ? ['default'] : request.profiles)].reverse();
  }

  /**
   * serve(), telling a failure to find the environment (`missed`: the router may try another repository) from
   * the answer: a failure in `use`, or a value refused for a uri template (400), is thrown.
   */
  async tryServe<T>(
    request: EnvironmentRequest,
    profile: string,
    use: UseEnvironment<T>,
    uriLabel: string | null = request.label,
  ): Promise<{ readonly value: T } | { readonly missed: unknown }> {
    let used = false;
    const marked: UseEnvironment<T> = (served, found) => {
      used = true;
      return use(served, found);
    };
    try {
      return { value: await this.serve(request, profile, marked, uriLabel) };
    } catch (error) {
      if (used || isRefusedValue(error)) throw error;
      return { missed: error };
    }
  }

  /** `uriLabel`: the `{label}` the uri is filled with, when not the request's (or the default label). */
  async serve<T>(
    request: EnvironmentRequest,
    profile: string,
    use: UseEnvironment<T>,
    uriLabel: string | null = request.label,
  ): Promise<T> {
    if (this.fixed) return use(this.fixed, await this.fixed.environments.find(request));
    const pool = this.pool as PlaceholderRepositories;
    return pool.serve({ application: request.name, profile, label: uriLabel }, request, use);
  }

  /**
   * Spring's try-master-branch for a `{label}` uri (MultipleJGitEnvironmentRepository.findOne, the default
   * repository only): a request for `main` (named, or the default label) that the `main` uri cannot serve is
   * served from the `master` one, so `{label}-config-repo` with no label finds master-config-repo.
   */
  fallsBackToMaster(request: EnvironmentRequest): boolean {
    const { uri, defaultLabel, tryMasterBranch } = this.definition;
    return (
      this.pool !== undefined &&
      uri.includes('{label}') &&
      tryMasterBranch &&
      (request.label ?? defaultLabel) === 'main'
    );
  }

  served(): ServedRepository[] {
    return this.fixed ? [this.fixed] : (this.pool?.all() ?? []);
  }
}

function isRefusedValue(error: unknown): boolean {
  return isConfbusError(error) && error.code === 'CONFBUS_INVALID_REPOSITORY_NAME';
}
