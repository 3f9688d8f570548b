/**
 * Where rollouts are kept so that every replica reads the same plan and progress and a restart resumes them: a
 * port, implemented on the Git repository (git-rollout-store.ts). The in-memory one is for the fast tier and
 * for servers with no repository to write to (docs/rollouts.md says what that loses).
 */
import type { RolloutState } from './rollout-plan.js';

export interface RolloutStore {
  /** Every rollout recorded, newest state of each. */
  load(): Promise<RolloutState[]>;
  /** Records a rollout's new state; rejects when it could not be kept (the change is then not applied). */
  save(state: RolloutState): Promise<void>;
}

export class MemoryRolloutStore implements RolloutStore {
  private readonly states = new Map<string, RolloutState>();

  async load(): Promise<RolloutState[]> {
    return [...this.states.values()];
  }

  async save(state: RolloutState): Promise<void> {
    this.states.set(state.id, state);
  }
}
