/**
 * Which instance sent a fetch: the request headers a confbus client sends with every fetch and watch subscription
 * (and a Spring client can send with `spring.cloud.config.headers.*`), so that a server running a staged rollout
 * can answer instances of one application with different commits. Shared by the client (writes them) and the
 * server (reads them); no I/O.
 */

/** The instance's stable id: the same across restarts, so a restarting canary stays a canary. */
export const INSTANCE_ID_HEADER = 'x-confbus-instance-id';
/** The instance's tags as `key=value` pairs joined by commas (`zone=eu-1,version=3.2`). */
export const INSTANCE_TAGS_HEADER = 'x-confbus-instance-tags';

/**
 * On an environment answer: a staged rollout holds this application, so a confbus client reports its health to
 * `POST /-/rollouts/reports` (the answer says how often, and which commit to serve) until told to stop.
 */
export const ROLLOUT_HEADER = 'x-confbus-rollout';

/** Longest instance id or tags header accepted: an id is a name, not a document. */
export const MAX_INSTANCE_HEADER_LENGTH = 512;

export interface InstanceIdentity {
  readonly id: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** The tags header's text for a tag map (keys sorted, so the same tags always make the same header). */
export function formatInstanceTags(tags: Readonly<Record<string, string>>): string {
  return Object.keys(tags)
    .sort()
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(tags[key] ?? '')}`)
    .join(',');
}

/** The tags a header carries; a pair without `=` or a malformed escape is skipped (the header is advisory). */
export function parseInstanceTags(header: string | undefined): Record<string, string> {
  const tags: Record<string, string> = {};
  if (header === undefined || header === '') return tags;
  for (const pair of header.slice(0, MAX_INSTANCE_HEADER_LENGTH).split(',')) {
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    try {
      tags[decodeURIComponent(pair.slice(0, equals).trim())] = decodeURIComponent(
        pair.slice(equals + 1).trim(),
      );
    } catch {
      // A malformed %-escape: the pair is left out rather than failing the fetch.
    }
  }
  return tags;
}

/**
 * The identity a request's headers carry, undefined without an id (a Spring client without the header, curl):
 * such a request is served the stable commit.
 */
export function instanceIdentityOf(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): InstanceIdentity | undefined {
  const raw = headers[INSTANCE_ID_HEADER];
  const id = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (id === undefined || id === '' || id.length > MAX_INSTANCE_HEADER_LENGTH) return undefined;
  const tags = headers[INSTANCE_TAGS_HEADER];
  return { id, tags: parseInstanceTags(Array.isArray(tags) ? tags.join(',') : tags) };
}
