/**
 * What one tick decides for a running rollout, from its state and the health its instances reported: roll back
 * (the judge found a canary unhealthy), complete (the last wave baked), start the next wave, or wait. Pure: the
 * engine keeps the state it returns, announces it and audits a rollback.
 */
import { type CanaryRecord, type HealthRecord, type JudgeSettings, judge } from './fleet-judge.js';
import type { InstanceEntry } from './instance-registry.js';
import type { RolloutDecision, RolloutState } from './rollout-plan.js';
import { inStartedWaves } from './wave-membership.js';

/** Decisions kept per rollout (the oldest dropped). */
const MAX_DECISIONS = 200;

export type RolloutStep =
  | { readonly kind: 'wait' }
  | {
      readonly kind: 'rollback';
      readonly next: RolloutState;
      readonly reason: string;
      readonly figures: object;
    }
  | { readonly kind: 'complete' | 'next-wave'; readonly next: RolloutState };

export function decideStep(
  state: RolloutState,
  known: readonly InstanceEntry[],
  healthOf: (entry: InstanceEntry) => HealthRecord | undefined,
  now: number,
  settings: JudgeSettings,
): RolloutStep {
  const canaries: CanaryRecord[] = [];
  const controls: HealthRecord[] = [];
  let pending = 0;
  for (const entry of known) {
    const health = healthOf(entry);
    // Never reported during this rollout (a Spring app, or a report from an earlier one): not judged.
    if (health === undefined || health.lastReportAt < state.createdAt) continue;
    if (!inStartedWaves(state, entry)) {
      controls.push(health);
      continue;
    }
    const onNew = health.version === state.plan.to;
    if (!onNew) pending++; // told to move, not there yet
    canaries.push({ ...health, onNew });
  }
  const verdict = judge(canaries, controls, now, settings);
  if (!verdict.healthy) {
    const { reason, figures } = verdict;
    const decision = { at: now, action: 'rollback', by: 'judge', reason, figures } as const;
    return {
      kind: 'rollback',
      reason,
      figures,
      next: { ...state, status: 'rolled-back', decisions: logged(state, decision) },
    };
  }
  // A wave has baked once its time is up and every canary that reports has applied the new commit.
  if (now - state.waveStartedAt < state.plan.bakeMs || pending > 0) return { kind: 'wait' };
  const figures = { ...verdict.figures, wave: state.wave + 1, bakeSeconds: state.plan.bakeMs / 1000 };
  if (state.wave + 1 >= state.plan.waves.length) {
    const reason = 'the last wave baked healthy';
    const decision = { at: now, action: 'complete', by: 'bake', reason, figures } as const;
    return { kind: 'complete', next: { ...state, status: 'completed', decisions: logged(state, decision) } };
  }
  const reason = `wave ${state.wave + 1} baked healthy: wave ${state.wave + 2} starts`;
  const decision = { at: now, action: 'next-wave', by: 'bake', reason, figures } as const;
  return {
    kind: 'next-wave',
    next: { ...state, wave: state.wave + 1, waveStartedAt: now, decisions: logged(state, decision) },
  };
}

/** The state's decision log with one more, bounded. */
export function logged(state: RolloutState, decision: RolloutDecision): RolloutDecision[] {
  return [...state.decisions, decision].slice(-MAX_DECISIONS);
}
