/**
 * The fleet judges a rollout: the canaries (instances in the started waves, serving the new commit) against the
 * control group (instances still on the old one), from the health reports both send. Pure: figures in, a verdict
 * with its reason and figures out (the decision log shows them as they were).
 */

/** What an instance last said about itself (POST /-/rollouts/reports), as the registry keeps it. */
export interface HealthRecord {
  readonly id: string;
  /** The commit it serves, as it reported. */
  readonly version: string | null;
  /** `UP`, `DOWN`, `OUT_OF_SERVICE`, … (Spring's health statuses). */
  readonly status: string;
  /** It refused the configuration it was served (a contract violation, a failed bind): it still serves the old. */
  readonly rejected: boolean;
  /** When it last reported (epoch ms). */
  readonly lastReportAt: number;
  /** Errors counted while serving `version`, and for how long (ms): the error rate's numerator and denominator. */
  readonly errors: number;
  readonly errorWindowMs: number;
}

/** A canary: an instance in a started wave, and whether it already serves the new commit (else: told to move). */
export interface CanaryRecord extends HealthRecord {
  readonly onNew: boolean;
}

export interface JudgeSettings {
  /** A canary that reported once and then nothing for this long is silent (ms). */
  readonly silenceMs: number;
  /** The canaries' error rate must exceed the control group's this many times … */
  readonly errorRateFactor: number;
  /** … and by at least this many errors per minute, to count as clearly worse. */
  readonly minErrorRatePerMinute: number;
}

export type Verdict =
  | { readonly healthy: true; readonly figures: Readonly<Record<string, number>> }
  | {
      readonly healthy: false;
      readonly reason: string;
      readonly figures: Readonly<Record<string, number | string>>;
    };

/** Errors per minute over a group: summed errors over summed observed time (an instance's window counts once). */
export function errorRatePerMinute(group: readonly HealthRecord[]): number {
  let errors = 0;
  let windowMs = 0;
  for (const record of group) {
    errors += record.errors;
    windowMs += record.errorWindowMs;
  }
  return windowMs <= 0 ? 0 : (errors / windowMs) * 60_000;
}

/**
 * Every canary is judged on rejecting the configuration and on going silent; those already serving the new
 * commit also on their status and, as a group, on their error rate against the control group's.
 */
export function judge(
  inWaves: readonly CanaryRecord[],
  controls: readonly HealthRecord[],
  now: number,
  settings: JudgeSettings,
): Verdict {
  const canaries = inWaves.filter((canary) => canary.onNew);
  const base = { canaries: canaries.length, controls: controls.length };
  for (const canary of inWaves) {
    if (canary.rejected)
      return {
        healthy: false,
        reason: `canary ${canary.id} rejected the new configuration`,
        figures: { ...base, instance: canary.id },
      };
    if (canary.onNew && canary.status !== 'UP')
      return {
        healthy: false,
        reason: `canary ${canary.id} reported ${canary.status}`,
        figures: { ...base, instance: canary.id, status: canary.status },
      };
    const silentMs = now - canary.lastReportAt;
    if (silentMs > settings.silenceMs)
      return {
        healthy: false,
        reason: `canary ${canary.id} has not reported for ${Math.round(silentMs / 1000)} s`,
        figures: {
          ...base,
          instance: canary.id,
          silentSeconds: Math.round(silentMs / 1000),
          silenceLimitSeconds: settings.silenceMs / 1000,
        },
      };
  }
  const canaryRate = errorRatePerMinute(canaries);
  const controlRate = errorRatePerMinute(controls);
  const figures = {
    ...base,
    canaryErrorsPerMinute: round(canaryRate),
    controlErrorsPerMinute: round(controlRate),
  };
  if (
    canaries.length > 0 &&
    canaryRate > controlRate * settings.errorRateFactor &&
    canaryRate - controlRate >= settings.minErrorRatePerMinute
  )
    return {
      healthy: false,
      reason: `canaries' error rate ${round(canaryRate)}/min is over ${settings.errorRateFactor}× the control group's ${round(controlRate)}/min`,
      figures: {
        ...figures,
        errorRateFactor: settings.errorRateFactor,
        minErrorRatePerMinute: settings.minErrorRatePerMinute,
      },
    };
  return { healthy: true, figures };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
