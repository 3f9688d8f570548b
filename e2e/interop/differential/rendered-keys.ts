/**
 * How the differential test reads answers back: JSON with every number literal as written (parseExact; in
 * member order, parseExactInOrder), and the checks that file a rendering's difference under a deliberate or listed topic only when its cause is shown
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

/** parseExact with every object a Map, members in the order the answer gives them. */
export function parseExactInOrder(text: string): unknown {
  return parseJson(text, (literal) => new NumberLiteral(literal), true);
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
  const leaves = [...flatOurs.keys()];
  const parents = leaves.filter((key) => leaves.some((other) => other.startsWith(`${key}.`)));
  if (parents.length === 0) return false;
  const underParent = (key: string) => parents.some((parent) => key.startsWith(`${parent}.`));
  const kept = leaves.filter((key) => !underParent(key));
  if (!kept.every((key) => flatTheirs.has(key) && isDeepStrictEqual(flatOurs.get(key), flatTheirs.get(key))))
    return false;
  // A value written after its children takes their map's place in Spring: those keys may stand elsewhere.
  const placed = kept.filter((key) => !parents.includes(key));
  const order = [...flatTheirs.keys()].filter((key) => placed.includes(key));
  if (!isDeepStrictEqual(order, placed)) return false;
  const moved = leaves.filter(underParent);
  const lastSegment = (key: string) => key.slice(key.lastIndexOf('.') + 1);
  return [...flatTheirs.keys()]
    .filter((key) => !kept.includes(key))
    .every((key) =>
      moved.some(
        (source) =>
          lastSegment(source) === lastSegment(key) &&
          isDeepStrictEqual(flatOurs.get(source), flatTheirs.get(key)),
      ),
    );
}

/**
 * Whether the rendered files hold the same properties and differ only in where keys that are numbers (`10`, a
 * segment `a.2.b`) stand: what confbus did while it kept properties in JavaScript objects, which put such keys
 * first (issue #25, settled; kept so that a return of it is named). Read back, both hold the same properties,
 * in the same order once those keys are left out, and the texts hold the same lines.
 */
export function onlyNumberKeysMoved(ours: string, theirs: string, format: string): boolean {
  const flatOurs = format === 'properties' ? propertiesLines(ours) : flatten(ours, format);
  const flatTheirs = format === 'properties' ? propertiesLines(theirs) : flatten(theirs, format);
  const numberKey = (key: string) => key.split('.').some((segment) => /^(0|[1-9]\d*)$/.test(segment));
  if (![...flatOurs.keys()].some(numberKey)) return false;
  if (flatOurs.size !== flatTheirs.size) return false;
  for (const [key, value] of flatOurs)
    if (!flatTheirs.has(key) || !isDeepStrictEqual(value, flatTheirs.get(key))) return false;
  const others = (flat: ReadonlyMap<string, unknown>) => [...flat.keys()].filter((key) => !numberKey(key));
  if (!isDeepStrictEqual(others(flatOurs), others(flatTheirs))) return false;
  const lines = (text: string) => text.split('\n').sort();
  return format === 'json' || isDeepStrictEqual(lines(ours), lines(theirs));
}

/** A rendered `.properties` (`key: value` lines), in order. */
function propertiesLines(text: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(': ');
    if (colon > 0) out.set(line.slice(0, colon), line.slice(colon + 2));
  }
  return out;
}

/** A rendered `.yml` or `.json` read back as flat properties (`a.b[0].c`), values typed, in order. */
function flatten(text: string, format: string): ReadonlyMap<string, unknown> {
  if (format === 'yml') return parseConfigFile('rendered.yml', text)[0]?.properties ?? new Map();
  const out = new Map<string, unknown>();
  const walk = (value: unknown, prefix: string) => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${prefix}[${i}]`));
    else if (value instanceof Map) {
      for (const [key, item] of value as Map<string, unknown>)
        walk(item, prefix === '' ? key : `${prefix}.${key}`);
    } else out.set(prefix, value);
  };
  walk(parseExactInOrder(text), '');
  return out;
}
