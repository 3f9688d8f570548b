/**
 * How the differential test reads answers back: JSON with every number literal as written (parseExact), and
 * the checks that file a rendering's difference under a deliberate or listed topic only when its cause is shown
 * (keys that are both a value and a parent; keys that are numbers), from compare.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import { parseConfigFile, parseJson } from '@confbus/core';

/**
 * A JSON number as written (`1000.0`, `1.0E20`, `100000000000000000000`): answers are compared literal for
 * literal, so neither a digit beyond 2^53 nor Java's `.0` can be lost on the way to the comparison.
 */
class NumberLiteral {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

export function parseExact(text: string): unknown {
  return parseJson(text, (literal) => new NumberLiteral(literal));
}

/**
 * A `.yml` or `.json` where keys are both a value and a parent (`k` and `k.x`): Spring's PropertyNavigator makes
 * compound keys that drop or move segments (and a value set after its children replaces them, in their place),
 * confbus keeps the whole remaining key. The difference is that one only if, read back as flat properties, every
 * property outside those keys is on both sides with the same value and (but for the keys that are both) in the
 * same order, and every property only Spring has is a value of one of those keys under its last segment. (A difference in quoting alone would not show here; the outputs without such keys, compared
 * byte for byte, show it.)
 */
export function onlyCompoundKeysDiffer(ours: string, theirs: string, format: string): boolean {
  const flatOurs = flatten(ours, format);
  const flatTheirs = flatten(theirs, format);
  // confbus keeps each whole key, so its output reads back as the merged properties themselves.
  const leaves = Object.keys(flatOurs);
  const parents = leaves.filter((key) => leaves.some((other) => other.startsWith(`${key}.`)));
  if (parents.length === 0) return false;
  const underParent = (key: string) => parents.some((parent) => key.startsWith(`${parent}.`));
  const kept = leaves.filter((key) => !underParent(key));
  if (!kept.every((key) => key in flatTheirs && isDeepStrictEqual(flatOurs[key], flatTheirs[key])))
    return false;
  // A value written after its children takes their map's place in Spring: those keys may stand elsewhere.
  const placed = kept.filter((key) => !parents.includes(key));
  const order = Object.keys(flatTheirs).filter((key) => placed.includes(key));
  if (!isDeepStrictEqual(order, placed)) return false;
  const moved = leaves.filter(underParent);
  const lastSegment = (key: string) => key.slice(key.lastIndexOf('.') + 1);
  return Object.keys(flatTheirs)
    .filter((key) => !kept.includes(key))
    .every((key) =>
      moved.some(
        (source) =>
          lastSegment(source) === lastSegment(key) && isDeepStrictEqual(flatOurs[source], flatTheirs[key]),
      ),
    );
}

/**
 * Whether the rendered files hold the same properties and differ only in where keys that are numbers (`10`, a
 * segment `a.2.b`) stand: confbus keeps properties in JavaScript objects, which put such keys first, Spring in
 * insertion order. Read back (as objects, which move them the same way on both sides) they are equal, and the
 * texts hold the same lines.
 */
export function onlyNumberKeysMoved(ours: string, theirs: string, format: string): boolean {
  const flatOurs = format === 'properties' ? propertiesLines(ours) : flatten(ours, format);
  const flatTheirs = format === 'properties' ? propertiesLines(theirs) : flatten(theirs, format);
  const numberKey = (key: string) => key.split('.').some((segment) => /^(0|[1-9]\d*)$/.test(segment));
  if (!Object.keys(flatOurs).some(numberKey)) return false;
  if (!isDeepStrictEqual(flatOurs, flatTheirs)) return false;
  if (!isDeepStrictEqual(Object.keys(flatOurs), Object.keys(flatTheirs))) return false;
  const lines = (text: string) => text.split('\n').sort();
  return format === 'json' || isDeepStrictEqual(lines(ours), lines(theirs));
}

/** A rendered `.properties` (`key: value` lines) as an object. */
function propertiesLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const colon = line.indexOf(': ');
    if (colon > 0) out[line.slice(0, colon)] = line.slice(colon + 2);
  }
  return out;
}

/** A rendered `.yml` or `.json` read back as flat properties (`a.b[0].c`), values typed. */
function flatten(text: string, format: string): Record<string, unknown> {
  if (format === 'yml') return parseConfigFile('rendered.yml', text)[0]?.properties ?? {};
  const out: Record<string, unknown> = {};
  const walk = (value: unknown, prefix: string) => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${prefix}[${i}]`));
    else if (value !== null && typeof value === 'object' && !(value instanceof NumberLiteral)) {
      for (const [key, item] of Object.entries(value)) walk(item, prefix === '' ? key : `${prefix}.${key}`);
    } else out[prefix] = value;
  };
  walk(parseExact(text), '');
  return out;
}
