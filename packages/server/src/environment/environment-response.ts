/**
 * The headers of an environment answer, written by the environment route (through fastify) and by the
 * repeat-request fast path (straight to node:http) alike, so a repeated URL is answered exactly as the first time.
 */
import type { ResolvedRevision } from './config-repository.js';

export const V2_MEDIA_TYPE = 'application/vnd.spring-cloud.config-server.v2+json';

/** Not part of Spring's protocol: lets operators and our client see what was served without parsing the body. */
export function revisionHeaders(
  revision: Pick<ResolvedRevision, 'commit' | 'stale' | 'heldHead'>,
): Record<string, string> {
  const headers: Record<string, string> = { 'x-config-version': revision.commit };
  if (revision.stale) headers['x-config-stale'] = 'true';
  // The contract gate serves the last commit that passed: this names the head it holds back.
  if (revision.heldHead !== undefined) headers['x-confbus-held-head'] = revision.heldHead;
  return headers;
}

/** Whether the client asked for Spring's v2 media type, whose values carry their origin. */
export function wantsOrigins(accept: string | undefined): boolean {
  return (accept ?? '').includes(V2_MEDIA_TYPE);
}

/** Spring's v2 media type when the client asks for it (Spring's own clients do), else plain JSON; and the revision. */
export function environmentHeaders(
  accept: string | undefined,
  revision: Pick<ResolvedRevision, 'commit' | 'stale' | 'heldHead'>,
): Record<string, string> {
  const type = wantsOrigins(accept) ? V2_MEDIA_TYPE : 'application/json';
  return { 'content-type': type, ...revisionHeaders(revision) };
}
