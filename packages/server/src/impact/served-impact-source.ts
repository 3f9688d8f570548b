/**
 * A served repository as the blast radius reads it: its files, its environment service (the environments exactly
 * as clients are served them, from the same caches) and the changed paths from its blob ids. Undefined for a
 * repository that has no blob ids (not a Git mirror): its pushes carry no impact.
 */
import { environmentRequest } from '../environment/environment-service.js';
import type { ServedRepository } from '../repositories/served-repository.js';
import { changedPaths } from '../gate/commit-changes.js';
import type { ImpactSource } from './config-impact.js';

export interface ServedImpactSource extends ImpactSource {
  changedPaths(base: string, commit: string): Promise<readonly string[]>;
}

export function servedImpactSource(repository: ServedRepository): ServedImpactSource | undefined {
  const { mirror, environments } = repository;
  const blobIds = mirror.blobIds?.bind(mirror);
  if (blobIds === undefined) return undefined;
  return {
    listFiles: (commit) => mirror.listFiles(commit),
    find: async (applications, profiles, commit) => {
      const request = environmentRequest(applications, profiles, commit);
      const found = await environments.findAtRevision(request, { label: commit, commit, stale: false });
      return found.resolved.environment;
    },
    documents: async (commit, path) => (await environments.files.readOne(commit, path)).documents,
    changedPaths: async (base, commit) => changedPaths(await blobIds(base), await blobIds(commit)),
  };
}
