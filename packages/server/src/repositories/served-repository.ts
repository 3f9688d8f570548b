/** One concrete repository being served: its mirror and its own environment cache. */
import type { EnvironmentService } from '../environment/environment-service.js';
import type { ConfigRepository } from '../environment/config-repository.js';
import type { RepositoryDefinition } from './repository-settings.js';

export interface ServedRepository {
  /** The definition's name; for one made from a uri template, `name[expanded uri]`. */
  readonly name: string;
  /** A GitMirror, the native backend's folders, or a test's fake. */
  readonly mirror: ConfigRepository;
  readonly environments: EnvironmentService;
  /** Removes the mirror's directory too (placeholder-made mirrors evicted from the pool). */
  close(options?: { removeFiles?: boolean }): Promise<void>;
}

/** Builds the mirror and environment service of one repository at one (expanded) uri; the composition root's job. */
export type OpenRepository = (
  definition: RepositoryDefinition,
  uri: string,
  name: string,
) => ServedRepository;
