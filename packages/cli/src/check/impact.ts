/**
 * The blast radius of a commit or range: which applications and profiles get a different effective
 * configuration, and which keys change (added, removed, changed value), for `confbus check --impact`. Every
 * application the repository configures is looked at, with or without a contract; values are compared, never
 * printed (they may be secrets).
 */
import { isConfigFileName, mergeForRendering, type FlatProperties } from '@confbus/core';
import { eachWithin, samePropertyValue } from '@confbus/core/internal';
import { type CheckTarget, type Contract, EVERY_APPLICATION, checkTargets } from '@confbus/contracts';
import type { OfflineEnvironments } from '@confbus/server/offline';
import type { CheckedRepository } from './checked-repository.js';
import type { CheckOptions } from './check-options.js';
import type { ConfigServerReads } from './config-server-reads.js';
import { fleetInstances, instancesOf } from './fleet-instances.js';
import { profilesInDocuments } from './run-check.js';

export interface EnvironmentImpact extends CheckTarget {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  /** With a server: the bus ids of the running instances that would refresh. */
  readonly instances?: readonly string[];
}

export interface Impact {
  /** The paths the change touches. */
  readonly files: readonly string[];
  /** The environments whose effective configuration differs, in application then profile order. */
  readonly environments: readonly EnvironmentImpact[];
}

const CONCURRENCY = 8;
/** Stands for "a contract for every application": impact looks at all applications the files name. */
const EVERY: readonly Contract[] = [{ application: EVERY_APPLICATION, name: '', schema: {} }];

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
  const files = [...(await checked.changedPaths())].sort();
  if (!files.some(isConfigFileName)) return { files, environments: [] };
  const paths = new Set(await repository.listFiles(revision));
  if (base !== undefined) for (const path of await repository.listFiles(base)) paths.add(path);
  const documentProfiles = await profilesInDocuments(environments, revision, [...paths]);
  const targets = checkTargets(
    [...paths],
    EVERY,
    options.profiles ? options : { ...options, documentProfiles },
  );
  const impacts: Array<EnvironmentImpact | undefined> = [];
  await eachWithin(targets, CONCURRENCY, async (target, index) => {
    try {
      const after = await effective(environments, target, revision);
      const before = base === undefined ? {} : await effective(environments, target, base);
      impacts[index] = differences(target, before, after);
    } catch {
      // A file that does not parse: the check reports it; its keys cannot be compared.
    }
  });
  const changed = impacts.filter((impact) => impact !== undefined);
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

async function effective(
  environments: OfflineEnvironments,
  target: CheckTarget,
  revision: string,
): Promise<FlatProperties> {
  const environment = await environments.find([target.application], target.profiles, revision);
  return mergeForRendering(environment.propertySources);
}

function differences(
  target: CheckTarget,
  before: FlatProperties,
  after: FlatProperties,
): EnvironmentImpact | undefined {
  const added: string[] = [];
  const changed: string[] = [];
  for (const key of Object.keys(after)) {
    if (!Object.hasOwn(before, key)) added.push(key);
    else if (!samePropertyValue(before[key], after[key])) changed.push(key);
  }
  const removed = Object.keys(before).filter((key) => !Object.hasOwn(after, key));
  if (added.length + changed.length + removed.length === 0) return undefined;
  return { ...target, added: added.sort(), removed: removed.sort(), changed: changed.sort() };
}
