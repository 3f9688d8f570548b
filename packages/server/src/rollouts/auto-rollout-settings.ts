/**
 * `confbus.server.rollouts.auto.<name>.*`: rules that make every new commit on a branch a rollout with a default
 * plan (docs/rollouts.md, "Rollouts on push"). Read once at start; a wrong value names its key.
 */
import { type SettingSpec, type Settings, SettingsError } from '@confbus/core';
import { splitList } from '@confbus/core/internal';
import { parseWaves, type WaveSpec } from './rollout-plan.js';

const AUTO = 'confbus.server.rollouts.auto';

export const autoRolloutSettingSpec: SettingSpec = {
  key: AUTO,
  type: 'string',
  isPrefix: true,
  description:
    'auto.<name>.branch=B (required), .applications=* or A,B (default *), .waves=1,25%,100% (default: default-waves), .bake=300s (default: default-bake-seconds): every new commit on B becomes a rollout of the applications it changes, started before the commit is served',
};

export interface AutoRolloutRule {
  readonly name: string;
  readonly branch: string;
  /** Undefined: every application the commit changes. */
  readonly applications: readonly string[] | undefined;
  readonly waves: readonly WaveSpec[];
  readonly bakeMs: number;
}

const PROPERTIES = new Set(['branch', 'applications', 'waves', 'bake']);

export function readAutoRolloutRules(
  settings: Settings,
  defaults: { readonly waves: readonly WaveSpec[]; readonly bakeMs: number },
): AutoRolloutRule[] {
  const raw = new Map<string, Map<string, string>>();
  for (const key of settings.keysUnder(`${AUTO}.`)) {
    const [name, property, ...rest] = key.slice(AUTO.length + 1).split('.');
    const bare = property?.replace(/\[\d+\]$/, '');
    if (name === undefined || name === '' || bare === undefined || rest.length > 0 || !PROPERTIES.has(bare))
      invalid(settings, key, 'use auto.<name>.branch, .applications, .waves or .bake');
    const value = settings.get(key);
    const text = Array.isArray(value) ? value.join(',') : String(value ?? '');
    const properties = raw.get(name) ?? new Map<string, string>();
    const before = properties.get(bare);
    properties.set(bare, before === undefined ? text : `${before},${text}`);
    raw.set(name, properties);
  }
  const rules: AutoRolloutRule[] = [];
  for (const [name, properties] of raw) {
    const keyOf = (property: string) => `${AUTO}.${name}.${property}`;
    const branch = properties.get('branch')?.trim() ?? '';
    if (branch === '' || branch.includes(',') || branch.startsWith('-'))
      invalid(settings, keyOf('branch'), 'names the branch whose new commits are rolled out (one branch)');
    if (rules.some((rule) => rule.branch === branch))
      invalid(settings, keyOf('branch'), `branch '${branch}' already has a rule`);
    const listed = splitList(properties.get('applications') ?? '*');
    const applications = listed.length === 0 || listed.includes('*') ? undefined : listed;
    let waves = defaults.waves;
    const wavesText = properties.get('waves');
    if (wavesText !== undefined)
      try {
        waves = parseWaves(wavesText);
      } catch (error) {
        invalid(settings, keyOf('waves'), (error as Error).message.replace("'waves'", 'the waves'));
      }
    const bakeText = properties.get('bake');
    const bakeMs = bakeText === undefined ? defaults.bakeMs : durationMs(bakeText);
    if (bakeMs === undefined)
      invalid(
        settings,
        keyOf('bake'),
        `'${bakeText}' is not a duration such as 300s, 5m, 1h (at most a week)`,
      );
    rules.push({ name, branch, applications, waves, bakeMs });
  }
  return rules;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function durationMs(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1000);
  return ms <= 7 * 86_400_000 ? ms : undefined;
}

function invalid(settings: Settings, key: string, problem: string): never {
  const source = settings.sourceOf(key) ?? 'default';
  throw new SettingsError(`Setting '${key}' from ${source}: ${problem}`, key, source);
}
