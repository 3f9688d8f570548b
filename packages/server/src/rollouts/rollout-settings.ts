/** Staged rollouts' settings (docs/rollouts.md), read once: the default plan, the judge's limits, the timers. */
import { type SettingSpec, type Settings, SettingsError } from '@confbus/core';
import type { JudgeSettings } from './fleet-judge.js';
import {
  type AutoRolloutRule,
  autoRolloutSettingSpec,
  readAutoRolloutRules,
} from './auto-rollout-settings.js';
import { parseWaves, type WaveSpec } from './rollout-plan.js';

const ROLLOUTS = 'confbus.server.rollouts';

export const rolloutSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${ROLLOUTS}.enabled`,
    type: 'boolean',
    default: true,
    description:
      'Staged rollouts: /-/rollouts API, per-instance commits while one runs, health reports (POST /-/rollouts/reports)',
  },
  {
    key: `${ROLLOUTS}.default-waves`,
    type: 'string',
    default: '1,5%,25%,100%',
    description:
      'Waves of a rollout whose plan names none: counts of instances ("1") or sticky shares of the fleet ("25%"), comma-separated',
  },
  {
    key: `${ROLLOUTS}.default-bake-seconds`,
    type: 'integer',
    default: 300,
    min: 0,
    max: 604_800,
    description: 'How long each wave of a plan that names none runs healthy before the next starts',
  },
  {
    key: `${ROLLOUTS}.report-interval-ms`,
    type: 'integer',
    default: 2000,
    min: 200,
    max: 60_000,
    description:
      'How often instances report their health while a rollout holds their application (told in every report answer)',
  },
  {
    key: `${ROLLOUTS}.silence-ms`,
    type: 'integer',
    default: 10_000,
    min: 1000,
    max: 600_000,
    description:
      'A canary that reported and then said nothing for this long is judged silent, and the rollout rolls back (keep it a few report intervals)',
  },
  {
    key: `${ROLLOUTS}.error-rate-factor`,
    type: 'number',
    default: 2,
    description:
      "The canaries' error rate must exceed the control group's this many times (and by min-error-rate) to roll back",
  },
  {
    key: `${ROLLOUTS}.min-error-rate`,
    type: 'number',
    default: 5,
    description:
      "Errors per minute the canaries' rate must exceed the control group's by, so that a few errors on an idle fleet decide nothing",
  },
  {
    key: `${ROLLOUTS}.tick-ms`,
    type: 'integer',
    default: 1000,
    min: 50,
    max: 60_000,
    description: 'How often running rollouts are judged and their bake timers checked',
  },
  {
    key: `${ROLLOUTS}.store`,
    type: 'string',
    default: 'git',
    description:
      "Where rollouts are kept: 'git' (a ref the server pushes to the default Git repository: shared by every replica, survives restarts; needs push rights) or 'memory' (this process only: lost on restart, one replica only)",
  },
  {
    key: `${ROLLOUTS}.ref`,
    type: 'string',
    default: 'refs/confbus/rollouts',
    description: "The ref the 'git' store writes (its commits' history is the rollouts' history)",
  },
  {
    key: `${ROLLOUTS}.sync-ms`,
    type: 'integer',
    default: 2000,
    min: 100,
    max: 600_000,
    description:
      "How often a server reads the rollouts' store again ('git': one ls-remote of the ref), so a rollout another replica started or moved is followed",
  },
  autoRolloutSettingSpec,
];

export interface RolloutSettings {
  readonly enabled: boolean;
  readonly defaultWaves: readonly WaveSpec[];
  readonly defaultBakeMs: number;
  readonly reportIntervalMs: number;
  readonly judge: JudgeSettings;
  readonly tickMs: number;
  readonly store: 'git' | 'memory';
  readonly ref: string;
  readonly syncMs: number;
  /** Branches whose new commits become rollouts (auto.<name>.*). */
  readonly auto: readonly AutoRolloutRule[];
}

export function readRolloutSettings(settings: Settings): RolloutSettings {
  const store = settings.string(`${ROLLOUTS}.store`);
  if (store !== 'git' && store !== 'memory')
    invalid(settings, 'store', `'${store}' must be 'git' or 'memory'`);
  const ref = settings.string(`${ROLLOUTS}.ref`);
  if (!/^refs\/[A-Za-z0-9._/-]+$/.test(ref) || ref.includes('..') || /^refs\/(heads|tags)\//.test(ref))
    invalid(
      settings,
      'ref',
      `'${ref}' must be a ref under refs/ outside heads/ and tags/, e.g. refs/confbus/rollouts`,
    );
  let defaultWaves: readonly WaveSpec[] = [];
  try {
    defaultWaves = parseWaves(settings.string(`${ROLLOUTS}.default-waves`));
  } catch (error) {
    invalid(settings, 'default-waves', (error as Error).message.replace("'waves'", 'the waves'));
  }
  const defaultBakeMs = settings.number(`${ROLLOUTS}.default-bake-seconds`) * 1000;
  return {
    enabled: settings.boolean(`${ROLLOUTS}.enabled`),
    defaultWaves,
    defaultBakeMs,
    reportIntervalMs: settings.number(`${ROLLOUTS}.report-interval-ms`),
    judge: {
      silenceMs: settings.number(`${ROLLOUTS}.silence-ms`),
      errorRateFactor: Math.max(1, settings.number(`${ROLLOUTS}.error-rate-factor`)),
      minErrorRatePerMinute: Math.max(0, settings.number(`${ROLLOUTS}.min-error-rate`)),
    },
    tickMs: settings.number(`${ROLLOUTS}.tick-ms`),
    store,
    ref,
    syncMs: settings.number(`${ROLLOUTS}.sync-ms`),
    auto: readAutoRolloutRules(settings, { waves: defaultWaves, bakeMs: defaultBakeMs }),
  };
}

function invalid(settings: Settings, name: string, problem: string): never {
  const key = `${ROLLOUTS}.${name}`;
  const source = settings.sourceOf(key) ?? 'default';
  throw new SettingsError(`Setting '${key}' from ${source}: ${problem}`, key, source);
}
