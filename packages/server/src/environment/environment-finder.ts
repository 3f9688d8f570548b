/** What the HTTP routes need to answer an environment request: the repository router, or one repository. */
import type { EnvironmentRequest } from './environment-service.js';
import type { ResolvedEnvironment } from './resolved-environment.js';
import type { ResolvedRevision } from './config-repository.js';

export interface FoundEnvironment {
  resolved: ResolvedEnvironment;
  revision: ResolvedRevision;
}

export interface EnvironmentFinder {
  find(request: EnvironmentRequest): Promise<FoundEnvironment>;
  /**
   * Optional: what find() would answer, when that is a cache hit needing no wait (see
   * ConfigRepository.resolveNow); undefined otherwise, and nothing counted or started.
   */
  findNow?(request: EnvironmentRequest): FoundEnvironment | undefined;
}
