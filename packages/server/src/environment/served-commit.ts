/**
 * Which commit an application is served: the one hook in the serving path where a policy may serve something
 * other than the label's head (the contract gate holds an application at its last commit that passed; a staged
 * rollout could hold some instances back). EnvironmentService asks it after resolving the label and before
 * looking up or building the environment, so the cache, the fast path and every route see the same decision.
 * Policies compose: `composeServedCommits(a, b)` asks `b` about what `a` decided.
 */
import type { EnvironmentRequest } from './environment-request.js';
import type { ResolvedRevision } from './config-repository.js';

/** The revision served, and when it is not the label's head, the head held back (`X-Confbus-Held-Head`). */
export interface ServedRevision extends ResolvedRevision {
  readonly heldHead?: string;
}

export interface ServedCommitPolicy {
  /** The revision to serve `request` from, given the label's head as resolved. */
  decide(request: EnvironmentRequest, head: ResolvedRevision): Promise<ServedRevision>;
  /**
   * decide()'s answer when it is known at once (the repeat-request fast path); undefined when decide() must
   * work it out. Must start nothing.
   */
  decideNow(request: EnvironmentRequest, head: ResolvedRevision): ServedRevision | undefined;
}

/** Applies `first`, then `second` to what `first` decided. */
export function composeServedCommits(
  first: ServedCommitPolicy,
  second: ServedCommitPolicy,
): ServedCommitPolicy {
  return {
    decide: async (request, head) => second.decide(request, await first.decide(request, head)),
    decideNow(request, head) {
      const decided = first.decideNow(request, head);
      return decided === undefined ? undefined : second.decideNow(request, decided);
    },
  };
}

/**
 * The commit a staged rollout pinned the request to (an operator's explicit choice: it wins over the contract
 * gate's), at the label's revision (same label, same staleness); undefined when no rollout pinned it.
 */
export function pinnedRevision(
  request: EnvironmentRequest,
  revision: ResolvedRevision,
): ResolvedRevision | undefined {
  return request.commit === undefined || request.commit === revision.commit
    ? undefined
    : { ...revision, commit: request.commit };
}

/** servedRevision for the fast path: undefined when the gate cannot decide without waiting. */
export function servedRevisionNow(
  request: EnvironmentRequest,
  head: ResolvedRevision,
  policy: ServedCommitPolicy | undefined,
): ResolvedRevision | undefined {
  return pinnedRevision(request, head) ?? (policy ? policy.decideNow(request, head) : head);
}
