/**
 * What a request for an environment names (applications, profiles, label) and what travels with it (the client's
 * version hint, a rollout's commit), and the builders every caller uses, so a request is made one way.
 */

export interface EnvironmentRequest {
  /** The raw application segment, e.g. `foo` or `foo,bar` (after `(_)` decoding). */
  name: string;
  applications: readonly string[];
  /** The raw profiles segment, e.g. `dev,db`; Spring echoes it as a one-element array. */
  profilesText: string;
  profiles: readonly string[];
  label: string | null;
  /**
   * The client's version hint (`X-Config-Min-Version`): at least this commit (see ConfigRepository.resolve).
   * Carried on the request so every router and finder in between passes it on unchanged.
   */
  atLeast?: string;
  /**
   * Answer from the state fetched last, without an upstream check (RepositoryRefresh.resolveFetched): the
   * console's fleet states and the second side of a diff, which must not cost a check per instance or side.
   */
  lastFetched?: boolean;
  /**
   * Serve this commit instead of the label's head (the label is still resolved and echoed): a staged rollout's
   * choice for the instance asking (rollouts/rollout-engine.ts, through serving/'s commit-choice hook).
   */
  commit?: string;
}

/** A request as a client names it: the applications (joined, as its URL segment), the profiles, the label. */
export function environmentRequest(
  applications: readonly string[],
  profiles: readonly string[],
  label: string | null,
): EnvironmentRequest {
  return { name: applications.join(','), applications, profilesText: profiles.join(','), profiles, label };
}

/** The request with the client's version hint, when it sent one. */
export function withVersionHint(
  request: EnvironmentRequest,
  atLeast: string | undefined,
): EnvironmentRequest {
  return atLeast === undefined ? request : { ...request, atLeast };
}
