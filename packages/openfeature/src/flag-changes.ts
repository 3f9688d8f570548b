/**
 * Which flags a refresh changed. The client reports the keys whose raw values changed; a flag whose value is a
 * placeholder (`features.x=${other.key}`) changes with the key it names, so the flags are compared resolved:
 * the values under the prefix before the refresh (a view pinned to the old snapshot) against those after.
 */
import type { BoundObject, BoundValue, ConfigView } from '@confbus/client';
import { isJavaDouble } from '@confbus/core';

/** Flag path (`banner.text`, `list[0]`) → its value as comparable text. */
export type FlagValues = ReadonlyMap<string, string>;

/** The flags under `root` (the prefix without its dot; '' for all keys) in `view`; unreadable ones are left out. */
export function flagValues(view: ConfigView, root: string): FlagValues {
  const out = new Map<string, string>();
  let bound: BoundObject;
  try {
    bound = view.bind(root);
  } catch {
    // A value that cannot be resolved (a broken placeholder) fails its own evaluation, with a PARSE_ERROR.
    return out;
  }
  flatten(bound, '', out);
  return out;
}

function flatten(value: BoundValue, path: string, out: Map<string, string>): void {
  if (Array.isArray(value)) {
    value.forEach((child, index) => flatten(child, `${path}[${index}]`, out));
  } else if (typeof value === 'object' && value !== null && !isJavaDouble(value)) {
    for (const [key, child] of Object.entries(value))
      flatten(child, path === '' ? key : `${path}.${key}`, out);
  } else {
    out.set(path, `${typeof value}:${String(value)}`);
  }
}

/**
 * The flag keys whose values differ, with every flag key above them: a change to `banner.text` changes the object
 * flag `banner` too (and `list[0]` the flag `list`). Sorted.
 */
export function changedFlags(before: FlagValues, after: FlagValues): string[] {
  const changed = new Set<string>();
  for (const [path, value] of after) if (before.get(path) !== value) addWithAncestors(path, changed);
  for (const path of before.keys()) if (!after.has(path)) addWithAncestors(path, changed);
  return [...changed].sort();
}

function addWithAncestors(path: string, into: Set<string>): void {
  for (let end = path.length; end > 0; end = lastBoundary(path, end)) into.add(path.slice(0, end));
}

/** Where the parent path of `path.slice(0, end)` ends: before its last `.` or `[`, or 0 at the top. */
function lastBoundary(path: string, end: number): number {
  const head = path.slice(0, end);
  return Math.max(head.lastIndexOf('.'), head.lastIndexOf('['), 0);
}
