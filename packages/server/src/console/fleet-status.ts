/**
 * Where each instance stands against the latest commit of its label: `current` (it serves that commit),
 * `same-config` (an older commit, but its application's effective configuration is the same — a push that did
 * not touch it), `lagging` (its configuration differs from the latest), or `unknown` (it never said which
 * version it serves, e.g. a Spring node, or the version is not in the repository).
 */
import { parseApplications, parseProfiles } from '@confbus/core';
import { LruCache } from '../environment/lru-cache.js';
import type { ConsoleContext } from './console-context.js';
import { diffEnvironments } from './effective-environment.js';
import type { FleetInstance } from './fleet-registry.js';

export type SyncState = 'current' | 'same-config' | 'lagging' | 'unknown';

export interface FleetEntry extends FleetInstance {
  state: SyncState;
  /** The latest commit of the instance's label (the default label when it names none). */
  latest: string | null;
}

export class FleetStatus {
  /** By (application, profiles, version, latest): a group of instances costs one comparison. */
  private readonly states = new LruCache<string, Promise<SyncState>>(2048);

  constructor(private readonly context: ConsoleContext) {}

  async classify(instances: readonly FleetInstance[]): Promise<FleetEntry[]> {
    return Promise.all(
      instances.map(async (instance) => {
        const latest = await this.context.mirror
          .resolveFetched(instance.label)
          .then((revision) => revision.commit)
          .catch(() => null);
        return { ...instance, latest, state: await this.stateOf(instance, latest) };
      }),
    );
  }

  private stateOf(instance: FleetInstance, latest: string | null): Promise<SyncState> {
    const version = instance.configVersion;
    if (version === null || latest === null) return Promise.resolve('unknown');
    if (version === latest) return Promise.resolve('current');
    const key = [instance.application, instance.profiles.join(','), version, latest].join('\0');
    let state = this.states.get(key);
    if (!state) {
      state = this.compare(instance, version, latest);
      this.states.set(key, state);
    }
    return state;
  }

  private async compare(instance: FleetInstance, version: string, latest: string): Promise<SyncState> {
    const profilesText = instance.profiles.join(',');
    const request = (label: string) => ({
      name: instance.application,
      applications: parseApplications(instance.application),
      profilesText,
      profiles: parseProfiles(profilesText),
      label,
    });
    try {
      // The state fetched last: a fleet view costs no upstream check per group.
      const at = async (label: string) =>
        this.context.environments.findAt(request(label), await this.context.mirror.resolveFetched(label));
      const [then, now] = await Promise.all([at(version), at(latest)]);
      const diff = diffEnvironments(then.resolved.stored, now.resolved.stored);
      const same = diff.added.length + diff.removed.length + diff.changed.length === 0;
      return same ? 'same-config' : 'lagging';
    } catch {
      return 'unknown';
    }
  }
}
