/**
 * What changed between two states of an application's effective configuration: the merged properties (highest
 * precedence source wins, as a client merges them) compared key by key. A watch message names the changed keys;
 * the values travel, when they do, as the environment endpoint's own whole body (watch-deliveries.ts), never as
 * a diff of this comparison's: one rendering of the values, with the endpoint's rules (secrets, {cipher} text,
 * Spring's formats). docs/watch.md has the measurements.
 */
import type { Environment } from '@confbus/core';

/** Key → value as JSON text: compared as a string, so a value of another type with the same text is a change. */
export type MergedValues = ReadonlyMap<string, string>;

export function mergedValues(environment: Environment): MergedValues {
  const merged = new Map<string, string>();
  // Highest precedence first: the first source naming a key wins.
  for (const source of environment.propertySources) {
    for (const [key, value] of source.source) {
      if (!merged.has(key)) merged.set(key, JSON.stringify(value));
    }
  }
  return merged;
}

/** Keys added, removed or changed, sorted. */
export function changedKeys(before: MergedValues, after: MergedValues): string[] {
  const keys: string[] = [];
  for (const [key, value] of after) if (before.get(key) !== value) keys.push(key);
  for (const key of before.keys()) if (!after.has(key)) keys.push(key);
  return keys.sort();
}
