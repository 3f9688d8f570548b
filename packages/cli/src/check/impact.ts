/**
 * `confbus check --impact`: the blast radius of a commit or range (the server's configImpact: which applications
 * and profiles get a different effective configuration, which keys change), and with `--server` the running
 * instances each change reaches. Every application the repository configures is looked at, with or without a
 * contract; values are compared, never printed (they may be secrets).
 */
import {
  type EnvironmentImpact as ChangedEnvironment,
  type OfflineEnvironments,
  configImpact,
} from '@confbus/server/offline';
import type { CheckedRepository } from './checked-repository.js';
import type { CheckOptions } from './check-options.js';
import type { ConfigServerReads } from './config-server-reads.js';
import { fleetInstances, instancesOf } from './fleet-instances.js';

export interface EnvironmentImpact extends ChangedEnvironment {
  /** With a server: the bus ids of the running instances that would refresh. */
  readonly instances?: readonly string[];
}

export interface Impact {
  /** The paths the change touches. */
  readonly files: readonly string[];
  /** The environments whose effective configuration differs, in application then profile order. */
  readonly environments: readonly EnvironmentImpact[];
}

/**
 * `environments` builds from `checked.repository` (the check's own, so environments built once serve both); with
 * `server` (--server), each change names the running instances it reaches.
 */
export async function impactOf(
  checked: CheckedRepository,
  environments: OfflineEnvironments,
  options: Pick<CheckOptions, 'profiles' | 'applications'>,
  server?: ConfigServerReads,
): Promise<Impact> {
  const { repository, revision, base } = checked;
  const { files, environments: changed } = await configImpact(
    {
      listFiles: (commit) => repository.listFiles(commit),
      find: environments.find,
      documents: environments.documents,
    },
    {
      revision,
      base,
      files: await checked.changedPaths(),
      ...(options.profiles ? { profiles: options.profiles } : {}),
      ...(options.applications ? { applications: options.applications } : {}),
    },
  );
  if (server === undefined || changed.length === 0) return { files, environments: changed };
  const fleet = await fleetInstances(
    server,
    changed.map((impact) => impact.application),
  );
  return {
    files,
    environments: changed.map((impact) => ({
      ...impact,
      instances: instancesOf(impact, fleet).map((instance) => instance.id),
    })),
  };
}
