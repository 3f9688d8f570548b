/**
 * Where each instance stands against the latest commit of its label in the repository that serves it (routed
 * as its own requests are): `current` (it serves that commit),
 * `same-config` (an older commit, but its application's effective configuration is the same — a push that did
 * not touch it), `lagging` (its configuration differs from the latest), or `unknown` (it never said which
 * version it serves, e.g. a Spring node, or the version is not in the repository).
 */
import { type ConsoleInstance, type ConsoleSyncState, parseApplications, parseProfiles } from '@confbus/core';
import type { FoundEnvironment } from '../environment/environment-finder.js';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import { LruCache } from '../support/lru-cache.js';
import type { ServedRepository } from '../repositories/served-repository.js';
import type { ConsoleContext } from './console-context.js';
import { diffEnvironments } from './effective-environment.js';
import type { FleetInstance } from './fleet-registry.js';

type Standing = Pick<ConsoleInstance, 'state' | 'latest'>;

export class FleetStatus {
  /** By (application, profiles, version, latest): a group of instances costs one comparison. */
  private readonly states = new LruCache<string, Promise<ConsoleSyncState>>(2048);

  constructor(private readonly context: ConsoleContext) {}

  async classify(instances: readonly FleetInstance[]): Promise<ConsoleInstance[]> {
    // Instances that ask for the same thing and serve the same version stand the same: one lookup per group.
    const groups = new Map<string, Promise<Standing>>();
    return Promise.all(
      instances.map(async (instance) => {
        const key = [
          instance.application,
          instance.profiles.join(','),
          instance.label,
          instance.configVersion,
        ];
        const group = key.join('\0');
        let standing = groups.get(group);
        if (!standing) groups.set(group, (standing = this.standingOf(instance)));
        return { ...instance, ...(await standing) };
      }),
    );
  }

  /**
   * Where the instance stands against what it would be served now: its request goes through the repository
   * router as a client's does, in the state fetched last (a fleet view costs no upstream check).
   */
  private async standingOf(instance: FleetInstance): Promise<Standing> {
    try {
      return await this.context.repositories.serve(
        { ...requestOf(instance, instance.label), lastFetched: true },
        async (served, now) => {
          const latest = now.revision.commit;
          return { latest, state: await this.stateOf(instance, served, now) };
        },
      );
    } catch {
      // Nothing would be served to it (no such application, label or repository).
      return { latest: null, state: 'unknown' };
    }
  }

  private stateOf(
    instance: FleetInstance,
    served: ServedRepository,
    now: FoundEnvironment,
  ): Promise<ConsoleSyncState> {
    const version = instance.configVersion;
    const latest = now.revision.commit;
    if (version === null) return Promise.resolve('unknown');
    if (version === latest) return Promise.resolve('current');
    const key = [served.name, instance.application, instance.profiles.join(','), version, latest].join('\0');
    let state = this.states.get(key);
    if (!state) {
      state = this.compare(instance, served, version, now);
      this.states.set(key, state);
    }
    return state;
  }

  /** The instance's environment at its version against the latest, in the same repository, as served. */
  private async compare(
    instance: FleetInstance,
    served: ServedRepository,
    version: string,
    now: FoundEnvironment,
  ): Promise<ConsoleSyncState> {
    try {
      const then = await served.environments.find({ ...requestOf(instance, version), lastFetched: true });
      const diff = diffEnvironments(then.resolved, now.resolved);
      const same = diff.added.length + diff.removed.length + diff.changed.length === 0;
      return same ? 'same-config' : 'lagging';
    } catch {
      return 'unknown';
    }
  }
}

/** The environment request an instance makes, at a label. */
export function requestOf(instance: FleetInstance, label: string | null): EnvironmentRequest {
  const profilesText = instance.profiles.join(',');
  return {
    name: instance.application,
    applications: parseApplications(instance.application),
    profilesText,
    profiles: parseProfiles(profilesText),
    label,
  };
}
