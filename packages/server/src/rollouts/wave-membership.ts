/**
 * Who is in a rollout's waves. Membership is sticky: a share (`percent`) is a hash of the rollout id and the
 * instance id, so a restarted instance falls on the same side; `instances` waves record whom they picked.
 * Waves only add instances, so an instance once on the new commit stays there until the rollout ends.
 */
import { createHash } from 'node:crypto';
import { type RolloutState, type WaveSpec, isActive } from './rollout-plan.js';

export interface InstanceFacts {
  readonly id: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly profiles: readonly string[];
}

/** The instance's place in [0, 1) for this rollout: the same on every replica and after every restart. */
export function stickyHash(rolloutId: string, instanceId: string): number {
  return createHash('sha256').update(`${rolloutId}\u0000${instanceId}`).digest().readUInt32BE(0) / 2 ** 32;
}

function matchesWave(state: RolloutState, wave: WaveSpec, instance: InstanceFacts): boolean {
  if (wave.percent !== undefined && stickyHash(state.id, instance.id) < wave.percent / 100) return true;
  if (wave.tags && Object.entries(wave.tags).every(([key, value]) => instance.tags[key] === value))
    return true;
  if (wave.profiles && wave.profiles.some((profile) => instance.profiles.includes(profile))) return true;
  return false;
}

/**
 * The commit a rollout serves an instance: B once completed, A when paused or ended otherwise, and while it runs
 * B inside the waves started so far, A outside (and to a request that names no instance).
 */
export function commitFor(state: RolloutState, instance: InstanceFacts | undefined): string {
  if (state.status === 'completed') return state.plan.to;
  if (!isActive(state) || instance === undefined) return state.plan.from;
  return inStartedWaves(state, instance) ? state.plan.to : state.plan.from;
}

/** True when the instance is in one of the waves started so far (picked instances included). */
export function inStartedWaves(state: RolloutState, instance: InstanceFacts): boolean {
  if (state.picked.some((ids) => ids.includes(instance.id))) return true;
  for (let index = 0; index <= state.wave && index < state.plan.waves.length; index++) {
    const wave = state.plan.waves[index];
    if (wave && matchesWave(state, wave, instance)) return true;
  }
  return false;
}

/**
 * The instances the current wave's `instances: n` still adds: the lowest hashes among the known instances not
 * yet in a wave (known: they fetched or reported during the rollout), until the wave has picked n.
 */
export function pickInstances(state: RolloutState, known: readonly InstanceFacts[]): string[] {
  const wanted = (state.plan.waves[state.wave]?.instances ?? 0) - (state.picked[state.wave]?.length ?? 0);
  if (wanted <= 0) return [];
  return known
    .filter((instance) => !inStartedWaves(state, instance))
    .map((instance) => ({ id: instance.id, hash: stickyHash(state.id, instance.id) }))
    .sort((a, b) => a.hash - b.hash)
    .slice(0, wanted)
    .map((entry) => entry.id);
}
