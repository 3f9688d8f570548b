/** "Did you mean" for a key that names no setting: the same spelling loosely, else the nearest by edits. */
import { looseKey } from './relaxed-names.js';
import type { SettingSpec } from './setting-spec.js';

export function nearestSetting(key: string, specs: readonly SettingSpec[]): SettingSpec | undefined {
  const loose = looseKey(key);
  return specs.find((spec) => looseKey(spec.key) === loose) ?? closest(key.toLowerCase(), specs);
}

export function unknownSettingMessage(key: string, source: string, specs: readonly SettingSpec[]): string {
  const near = nearestSetting(key, specs);
  const hint = near ? ` Did you mean '${near.key}'?` : '';
  return `Unknown setting '${key}' (from ${source}).${hint} Run 'confbus --help' for the list of settings.`;
}

function closest(key: string, specs: readonly SettingSpec[]): SettingSpec | undefined {
  let best: SettingSpec | undefined;
  let bestDistance = Math.max(3, Math.floor(key.length / 6));
  for (const spec of specs) {
    const d = editDistance(key, spec.key);
    if (d <= bestDistance) {
      best = spec;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length] ?? 0;
}
