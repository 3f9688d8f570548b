/**
 * Requests pinned to a rollout's commit (EnvironmentRequest.commit), one copy per request object and commit: a
 * repeated URL's request keeps its identity, so the environment cache keys computed for it are reused.
 */
import type { EnvironmentRequest } from '../environment/environment-service.js';

export class PinnedRequests {
  readonly #pinned = new WeakMap<EnvironmentRequest, Map<string, EnvironmentRequest>>();

  pin(request: EnvironmentRequest, commit: string): EnvironmentRequest {
    let byCommit = this.#pinned.get(request);
    if (byCommit === undefined) {
      byCommit = new Map();
      this.#pinned.set(request, byCommit);
    }
    let pinned = byCommit.get(commit);
    if (pinned === undefined) {
      pinned = { ...request, commit };
      byCommit.set(commit, pinned);
    }
    return pinned;
  }
}
