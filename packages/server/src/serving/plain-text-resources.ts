/**
 * Spring's plain-text endpoint (ResourceController + GenericResourceRepository): a file looked up in the
 * directories the environment is built from, in Spring's order (the root, then the search paths; for native,
 * the locations, then their label folders; all reversed with reverse-location-order), and in each directory
 * the profile-specific variants first (`nginx-dev.conf` before `nginx.conf`, profiles in the order requested):
 * the first directory holding any variant wins, as in Spring. Read at the commit
 * the environment was served from; a composite's members' directories one member after the other. Paths come from the URL, so they are checked segment by segment before any
 * lookup; they are only ever compared with the repository's own file list, never joined to a filesystem path.
 */
import { posix } from 'node:path';
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';
import type { FoundEnvironment } from '../environment/environment-finder.js';
import type { EnvironmentRequest, EnvironmentService } from '../environment/environment-service.js';

const MAX_PATH_LENGTH = 1024;

export interface FoundResource {
  /** The repository path that was read. */
  path: string;
  bytes: Buffer;
}

/** Decoded URL segments → a relative path; throws 400 naming the problem. */
export function validateResourcePath(rawSegments: readonly string[]): string {
  const segments = rawSegments.map((raw) => {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw invalidPath('a segment is not valid percent-encoding');
    }
    if (segment === '' || segment === '.' || segment === '..') throw invalidPath(`'${segment}' segment`);
    // eslint-disable-next-line no-control-regex
    if (/[\\/\x00-\x1f\x7f]/.test(segment))
      throw invalidPath('encoded slash, backslash or control character');
    if (segment.toLowerCase() === '.git') throw invalidPath("'.git' segment");
    return segment;
  });
  const path = segments.join('/');
  if (path.length === 0) throw invalidPath('empty path');
  if (path.length > MAX_PATH_LENGTH) throw invalidPath(`longer than ${MAX_PATH_LENGTH} characters`);
  return path;
}

export async function findResource(
  environments: EnvironmentService,
  found: FoundEnvironment,
  request: EnvironmentRequest,
  path: string,
  reverseLocationOrder = false,
): Promise<FoundResource> {
  const locations = await environments.resourceLocations(request, found.revision);
  for (const { directory, present, read } of reverseLocationOrder ? [...locations].reverse() : locations) {
    for (const local of profilePaths(request.profiles, path)) {
      const candidate = directory === '' ? local : `${directory}/${local}`;
      if (!present.has(candidate)) continue;
      const bytes = await read(candidate);
      if (bytes !== undefined) return { path: candidate, bytes };
    }
  }
  throw new ConfbusError(serverErrors.CONFBUS_RESOURCE_NOT_FOUND, `Not found: ${path}`);
}

/** Spring's getProfilePaths: `name-profile.ext` per requested profile (the plain name for `default`), then the name. */
function profilePaths(profiles: readonly string[], path: string): string[] {
  const extension = posix.extname(path);
  const stem = extension === '' ? path : path.slice(0, -extension.length);
  const paths = profiles.map((profile) => (profile === 'default' ? path : `${stem}-${profile}${extension}`));
  return [...new Set([...paths, path])];
}

function invalidPath(problem: string): ConfbusError {
  return new ConfbusError(serverErrors.CONFBUS_INVALID_RESOURCE_PATH, `Invalid resource path: ${problem}`);
}
