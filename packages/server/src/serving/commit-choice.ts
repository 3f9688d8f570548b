/**
 * The one hook where something other than the label decides which commit a request is served: a staged rollout
 * answers instances of one application with different commits (rollouts/, by the instance headers). The
 * environment routes and the repeat-request fast path both ask it, so a repeated URL is answered exactly as
 * fastify would answer it. With nothing deciding, `holds` is false and the request is served as it came.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { EnvironmentRequest } from '../environment/environment-service.js';

export interface CommitChoice {
  /** False when no request would be changed: the serving path then skips choose() (one property read). */
  readonly holds: boolean;
  /** The request to serve: the same object, or a copy with `commit` set (stable per request and commit). */
  choose(request: EnvironmentRequest, headers: IncomingHttpHeaders): EnvironmentRequest;
}

/** The request a choice makes of it, or the request itself when none holds. */
export function chosenRequest(
  choice: CommitChoice | undefined,
  request: EnvironmentRequest,
  headers: IncomingHttpHeaders,
): EnvironmentRequest {
  return choice === undefined || !choice.holds ? request : choice.choose(request, headers);
}
