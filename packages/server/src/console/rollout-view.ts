/**
 * Rollouts as the console shows them (packages/core/src/console/console-rollouts.ts): the engine's recorded state
 * with times as ISO strings, the waves as text, the actions the status allows, and for one rollout its instances
 * on A or B with their health and error rate, and both sides' figures as the judge compares them. Pure mapping:
 * every figure comes from the engine and the judge's own functions.
 */
import type {
  ConsoleRollout,
  ConsoleRolloutAction,
  ConsoleRolloutDecision,
  ConsoleRolloutDetails,
  ConsoleRolloutGroup,
  ConsoleRolloutInstance,
  ConsoleRolloutWave,
} from '@confbus/core';
import { type HealthRecord, errorRatePerMinute } from '../rollouts/fleet-judge.js';
import type { RolloutEngine } from '../rollouts/rollout-engine.js';
import { ACTIONS } from '../rollouts/rollout-routes.js';
import {
  OPERATOR_ACTIONS,
  type RolloutDecision,
  type RolloutState,
  type WaveSpec,
} from '../rollouts/rollout-plan.js';

const iso = (at: number): string => new Date(at).toISOString();

export function viewOfRollout(state: RolloutState): ConsoleRollout {
  const { plan } = state;
  const last = state.decisions[state.decisions.length - 1];
  return {
    id: state.id,
    status: state.status,
    applications: [...plan.applications],
    label: plan.label,
    from: plan.from,
    to: plan.to,
    waves: plan.waves.map(viewOfWave),
    wave: state.wave,
    waveStartedAt: iso(state.waveStartedAt),
    bakeSeconds: plan.bakeMs / 1000,
    bakeEndsAt: state.status === 'running' ? iso(state.waveStartedAt + plan.bakeMs) : null,
    createdAt: iso(state.createdAt),
    lastDecision: viewOfDecision(
      last ?? { at: state.createdAt, action: 'start', by: 'operator', reason: '' },
    ),
    actions: ACTIONS.filter((action): action is ConsoleRolloutAction =>
      OPERATOR_ACTIONS[action].from.includes(state.status),
    ),
  };
}

export function viewOfRolloutDetails(engine: RolloutEngine, state: RolloutState): ConsoleRolloutDetails {
  const instances = engine.instancesOf(state);
  const side = (onNew: boolean) => instances.filter((instance) => instance.onNew === onNew);
  return {
    ...viewOfRollout(state),
    instances: instances.map(({ entry, onNew, health }) => {
      const served = [...entry.served.entries()].sort((a, b) => b[1] - a[1])[0];
      const view: ConsoleRolloutInstance = {
        id: entry.id,
        tags: { ...entry.tags },
        profiles: [...entry.profiles],
        side: onNew ? 'B' : 'A',
        servedCommit: served?.[0] ?? null,
        lastSeenAt: iso(entry.lastSeenAt),
        health: health
          ? {
              status: health.status,
              rejected: health.rejected,
              version: health.version,
              errors: health.errors,
              errorsPerMinute: rounded(errorRatePerMinute([health])),
              lastReportAt: iso(health.lastReportAt),
            }
          : null,
      };
      return view;
    }),
    canaries: groupOf(side(true).map((instance) => instance.health)),
    controls: groupOf(side(false).map((instance) => instance.health)),
    decisions: state.decisions.map(viewOfDecision),
  };
}

function groupOf(health: readonly (HealthRecord | undefined)[]): ConsoleRolloutGroup {
  const reporting = health.filter((record): record is HealthRecord => record !== undefined);
  return {
    instances: health.length,
    reporting: reporting.length,
    unhealthy: reporting.filter((record) => record.status !== 'UP' || record.rejected).length,
    errorsPerMinute: rounded(errorRatePerMinute(reporting)),
  };
}

function viewOfDecision(decision: RolloutDecision): ConsoleRolloutDecision {
  return {
    at: iso(decision.at),
    action: decision.action,
    by: decision.by,
    reason: decision.reason,
    figures: { ...decision.figures },
  };
}

function viewOfWave(wave: WaveSpec): ConsoleRolloutWave {
  const parts: string[] = [];
  if (wave.instances !== undefined)
    parts.push(`${wave.instances} instance${wave.instances === 1 ? '' : 's'}`);
  if (wave.percent !== undefined) parts.push(`${wave.percent}%`);
  if (wave.tags)
    parts.push(
      Object.entries(wave.tags)
        .map(([key, value]) => `${key}=${value}`)
        .join(', '),
    );
  if (wave.profiles) parts.push(`profile ${wave.profiles.join(' or ')}`);
  return {
    text: parts.join(' + '),
    ...(wave.instances === undefined ? {} : { instances: wave.instances }),
    ...(wave.percent === undefined ? {} : { percent: wave.percent }),
    ...(wave.tags ? { tags: { ...wave.tags } } : {}),
    ...(wave.profiles ? { profiles: [...wave.profiles] } : {}),
  };
}

/** Two decimals, as the judge's figures. */
function rounded(value: number): number {
  return Math.round(value * 100) / 100;
}
