/**
 * A rollout's plan and its recorded progress, as data: what the API accepts, what the store keeps, what every
 * replica reads back. Validation names the field that is wrong (CONFBUS_ROLLOUT_BAD_REQUEST).
 */
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';

/** One wave: its instances are those picked by any of its selectors, on top of every earlier wave's. */
export interface WaveSpec {
  /** This many instances more (the lowest hashes among those seen when the wave starts). */
  readonly instances?: number;
  /** Every instance whose sticky hash falls below this share (0–100) of the fleet. */
  readonly percent?: number;
  /** Every instance carrying all these tags (X-Confbus-Instance-Tags). */
  readonly tags?: Readonly<Record<string, string>>;
  /** Every instance asking with one of these profiles. */
  readonly profiles?: readonly string[];
}

export interface RolloutPlan {
  /** The applications the rollout moves (a request naming any of them is answered by it). */
  readonly applications: readonly string[];
  /** The label the applications ask for; null: the default label. */
  readonly label: string | null;
  /** The commit served outside the waves (stable). */
  readonly from: string;
  /** The commit served inside them. */
  readonly to: string;
  readonly waves: readonly WaveSpec[];
  /** How long each wave runs healthy before the next starts, in ms. */
  readonly bakeMs: number;
}

export type RolloutStatus = 'running' | 'paused' | 'completed' | 'rolled-back' | 'aborted';

/** One line of the decision log: what was decided, why, with the figures it was decided on. */
export interface RolloutDecision {
  readonly at: number;
  readonly action: 'start' | 'next-wave' | 'complete' | 'rollback' | 'pause' | 'resume' | 'promote' | 'abort';
  /** Who decided: the judge (the fleet's health), the bake timer, or an operator (API, CLI, console). */
  readonly by: 'judge' | 'bake' | 'operator';
  readonly reason: string;
  readonly figures?: Readonly<Record<string, number | string>>;
}

export interface RolloutState {
  readonly id: string;
  readonly plan: RolloutPlan;
  readonly status: RolloutStatus;
  /** Index of the current wave (every wave up to it is on `to`). */
  readonly wave: number;
  readonly waveStartedAt: number;
  /**
   * Per wave, the instances its `instances: n` picked (recorded, so that membership is sticky): picked as they
   * become known during the wave, until it has n.
   */
  readonly picked: readonly (readonly string[])[];
  readonly decisions: readonly RolloutDecision[];
  readonly createdAt: number;
}

/** Still deciding who is served what: running or paused. A rolled-back or aborted rollout still holds `from`. */
export function isActive(state: RolloutState): boolean {
  return state.status === 'running' || state.status === 'paused';
}

/** Holds the applications to a commit choice: active, or ended without being promoted (everyone on `from`). */
export function isHolding(state: RolloutState): boolean {
  return state.status !== 'completed';
}

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const NAME = /^[A-Za-z0-9._-]{1,200}$/;

function bad(message: string): ConfbusError {
  return new ConfbusError(serverErrors.CONFBUS_ROLLOUT_BAD_REQUEST, message);
}

/** The plan a request body describes, with the defaults filled in; throws naming the first wrong field. */
export function parseRolloutPlan(
  body: unknown,
  defaults: { waves: readonly WaveSpec[]; bakeMs: number },
): RolloutPlan {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('The body must be a JSON object');
  const input = body as Record<string, unknown>;
  const applications =
    typeof input.application === 'string' ? [input.application] : (input.applications as unknown);
  if (!Array.isArray(applications) || applications.length === 0)
    throw bad("'application' (a name) or 'applications' (a non-empty list of names) is required");
  for (const name of applications)
    if (typeof name !== 'string' || !NAME.test(name))
      throw bad(`'applications': ${JSON.stringify(name)} is not an application name`);
  const from = commitField(input, 'from');
  const to = commitField(input, 'to');
  if (from === to) throw bad("'from' and 'to' are the same commit: nothing to roll out");
  const label = input.label === undefined || input.label === null ? null : input.label;
  if (label !== null && (typeof label !== 'string' || label === '' || label.includes(',')))
    throw bad("'label' must be one label (branch or tag), or left out for the default label");
  const waves = input.waves === undefined ? defaults.waves : parseWaves(input.waves);
  const bakeMs = input.bakeSeconds === undefined ? defaults.bakeMs : Number(input.bakeSeconds) * 1000;
  if (!Number.isFinite(bakeMs) || bakeMs < 0 || bakeMs > 7 * 86_400_000)
    throw bad("'bakeSeconds' must be a number of seconds between 0 and 604800 (a week)");
  return { applications: [...new Set(applications as string[])], label, from, to, waves, bakeMs };
}

function commitField(input: Record<string, unknown>, field: 'from' | 'to'): string {
  const value = input[field];
  if (typeof value !== 'string' || !COMMIT.test(value))
    throw bad(`'${field}' must be a full commit id (40 or 64 lower-case hex digits)`);
  return value;
}

/** Waves as text (`1,5%,25%,100%`, the settings' and the CLI's form) or as JSON objects. */
export function parseWaves(value: unknown): WaveSpec[] {
  const list = typeof value === 'string' ? value.split(',').map((part) => part.trim()) : value;
  if (!Array.isArray(list) || list.length === 0 || list.length > 20)
    throw bad('\'waves\' must list 1 to 20 waves, e.g. "1,5%,25%,100%"');
  return list.map((wave: unknown, index) => parseWave(wave, index));
}

function parseWave(wave: unknown, index: number): WaveSpec {
  const where = `'waves'[${index}]`;
  if (typeof wave === 'string') {
    const percent = /^(\d+(?:\.\d+)?)%$/.exec(wave);
    if (percent) return checked({ percent: Number(percent[1]) }, where);
    if (/^\d+$/.test(wave)) return checked({ instances: Number(wave) }, where);
    throw bad(`${where}: ${JSON.stringify(wave)} is neither a count ("1") nor a share ("25%")`);
  }
  if (typeof wave !== 'object' || wave === null) throw bad(`${where} must be a string or an object`);
  const spec = wave as Record<string, unknown>;
  const out: { instances?: number; percent?: number; tags?: Record<string, string>; profiles?: string[] } =
    {};
  if (spec.instances !== undefined) out.instances = Number(spec.instances);
  if (spec.percent !== undefined) out.percent = Number(spec.percent);
  if (spec.tags !== undefined) {
    if (
      typeof spec.tags !== 'object' ||
      spec.tags === null ||
      Object.values(spec.tags).some((v) => typeof v !== 'string')
    )
      throw bad(`${where}.tags must map tag names to string values`);
    out.tags = spec.tags as Record<string, string>;
  }
  if (spec.profiles !== undefined) {
    if (!Array.isArray(spec.profiles) || spec.profiles.some((p) => typeof p !== 'string'))
      throw bad(`${where}.profiles must be a list of profile names`);
    out.profiles = spec.profiles as string[];
  }
  return checked(out, where);
}

function checked(wave: WaveSpec, where: string): WaveSpec {
  if (wave.instances === undefined && wave.percent === undefined && !wave.tags && !wave.profiles)
    throw bad(`${where} selects nothing: give instances, percent, tags or profiles`);
  if (
    wave.instances !== undefined &&
    (!Number.isInteger(wave.instances) || wave.instances < 1 || wave.instances > 100_000)
  )
    throw bad(`${where}.instances must be a whole number from 1 to 100000`);
  if (
    wave.percent !== undefined &&
    (!Number.isFinite(wave.percent) || wave.percent <= 0 || wave.percent > 100)
  )
    throw bad(`${where}.percent must be above 0 and at most 100`);
  return wave;
}

export type OperatorAction = 'pause' | 'resume' | 'promote' | 'abort' | 'rollback';

/** The statuses each operator action may start from, and what it leads to. */
export const OPERATOR_ACTIONS: Record<OperatorAction, { from: readonly RolloutStatus[]; to: RolloutStatus }> =
  {
    pause: { from: ['running'], to: 'paused' },
    resume: { from: ['paused'], to: 'running' },
    promote: { from: ['running', 'paused'], to: 'completed' },
    abort: { from: ['running', 'paused'], to: 'aborted' },
    rollback: { from: ['running', 'paused', 'completed'], to: 'rolled-back' },
  };
