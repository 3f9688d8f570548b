/**
 * The operator console's JSON API, rollouts side (docs/console.md, docs/rollouts.md): the rollouts the Rollouts
 * view lists, one rollout's instances side by side, and the operator actions it posts. Types only, as
 * console-api.ts.
 */
export type ConsoleRolloutStatus = 'running' | 'paused' | 'completed' | 'rolled-back' | 'aborted';

/** What an operator may do to a rollout (each one audited as `rollout.<action>`). */
export type ConsoleRolloutAction = 'pause' | 'resume' | 'promote' | 'abort' | 'rollback';

/** One wave of the plan: the selectors that add its instances to those of every earlier wave. */
export interface ConsoleRolloutWave {
  /** The wave as text: `1 instance`, `25%`, `zone=eu`, `profile canary`, joined by ` + `. */
  text: string;
  instances?: number;
  percent?: number;
  tags?: Record<string, string>;
  profiles?: string[];
}

/** One line of the decision log: what was decided, by whom, why, with the figures it was decided on. */
export interface ConsoleRolloutDecision {
  at: string;
  action: string;
  /** `judge` (the fleet's health), `bake` (the bake timer) or `operator` (API, CLI, console). */
  by: string;
  reason: string;
  figures: Record<string, number | string>;
}

/** A rollout as the list shows it. */
export interface ConsoleRollout {
  id: string;
  status: ConsoleRolloutStatus;
  applications: string[];
  /** The label the applications ask for; null: the default label. */
  label: string | null;
  /** A: the commit served outside the waves. */
  from: string;
  /** B: the commit served inside them. */
  to: string;
  waves: ConsoleRolloutWave[];
  /** Index of the current wave (every wave up to it is on B). */
  wave: number;
  waveStartedAt: string;
  bakeSeconds: number;
  /** When the current wave's bake ends if it stays healthy; null unless running. */
  bakeEndsAt: string | null;
  createdAt: string;
  /** The newest decision (the list's "why"). */
  lastDecision: ConsoleRolloutDecision;
  /** The actions its status allows. */
  actions: ConsoleRolloutAction[];
}

/** An instance's last health report during the rollout. */
export interface ConsoleRolloutHealth {
  /** `UP`, `DOWN`, … as it reported. */
  status: string;
  /** It refused the configuration it was served. */
  rejected: boolean;
  /** The commit it says it serves. */
  version: string | null;
  /** Errors counted since it began serving that version, and the rate over that time. */
  errors: number;
  errorsPerMinute: number;
  lastReportAt: string;
}

/** An instance of the rollout's applications, on A (a control) or B (a canary). */
export interface ConsoleRolloutInstance {
  id: string;
  tags: Record<string, string>;
  profiles: string[];
  side: 'A' | 'B';
  /** The commit a fetch of it was last answered with; null when it only reported. */
  servedCommit: string | null;
  lastSeenAt: string;
  /** Null: it never reported (e.g. a Spring app, which only fetches). */
  health: ConsoleRolloutHealth | null;
}

/** A side's figures, as the judge compares them. */
export interface ConsoleRolloutGroup {
  instances: number;
  reporting: number;
  /** Reporting instances whose status is not UP, or that rejected the configuration. */
  unhealthy: number;
  errorsPerMinute: number;
}

/** `GET /rollouts/{id}`: the rollout, its instances and the decision log (oldest first). */
export interface ConsoleRolloutDetails extends ConsoleRollout {
  instances: ConsoleRolloutInstance[];
  /** B's instances (canaries) against A's (controls). */
  canaries: ConsoleRolloutGroup;
  controls: ConsoleRolloutGroup;
  decisions: ConsoleRolloutDecision[];
}

/** `GET /rollouts`: every rollout, newest first; `enabled: false` when rollouts are off. */
export interface ConsoleRollouts {
  enabled: boolean;
  rollouts: ConsoleRollout[];
}

/** `POST /rollouts/{id}/{action}`'s body. */
export interface ConsoleRolloutActionRequest {
  reason: string;
}
