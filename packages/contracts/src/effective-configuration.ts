/**
 * An environment's effective configuration as the nested object a contract describes, and the way back from a
 * place in that object to the Spring key and the file and line its value came from.
 *
 * The values are the ones a client ends up with: property sources merged by precedence (core's
 * mergeForRendering, the server's own merge for its file renderings: a list is taken whole from the source
 * that wins it), `${…}` placeholders resolved from the environment itself, as the server resolves a rendered
 * file. A value that only the running process can know is not judged: one whose placeholder is still
 * unresolved (`${PORT}` from the process environment) or a `{cipher}` value (decrypted by the server or the
 * client, with keys a check does not hold). Such a key still counts as present.
 */
import { type Environment, type PropertySource, type PropertyValue, mergeForRendering } from '@confbus/core';
import { isJavaDouble, renderingPlaceholders } from '@confbus/core';
import type { ValueOrigin } from './contract.js';

export type ConfigNode = string | number | boolean | ConfigNode[] | { [key: string]: ConfigNode };
export type ConfigObject = { [key: string]: ConfigNode };

export interface EffectiveConfiguration {
  /** The nested object (a fresh copy per contract: validation converts types in place). */
  instance(): ConfigObject;
  /** The Spring key of a JSON pointer into the instance (`/app/hosts/2` → `app.hosts[2]`). */
  keyAt(pointer: string): string;
  /** Where the value of `key` (or the first value under it) was written. */
  originOf(key: string): ValueOrigin | undefined;
  /** Whether `key` (or a value under it) holds a value that only the running process knows. */
  isUnjudged(key: string): boolean;
}

const UNRESOLVED = /\$\{[^}]+\}/;
const CIPHER = '{cipher}';
/** Segments that would reach the prototype of the object built: never set (the client's bind() skips them too). */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

export function effectiveConfiguration(environment: Environment): EffectiveConfiguration {
  const sources = environment.propertySources;
  const merged = mergeForRendering(sources);
  const placeholders = renderingPlaceholders(sources, environment.name);
  const unjudged: string[] = [];
  const root: ConfigObject = {};
  for (const [key, raw] of merged) {
    const value = judgedValue(key, raw, placeholders.inValue);
    if (value === undefined) unjudged.push(key);
    insert(root, pathOf(key), value ?? String(raw));
  }
  const text = JSON.stringify(root);
  return {
    instance: () => JSON.parse(text) as ConfigObject,
    keyAt: (pointer) => keyAt(root, pointer),
    originOf: (key) => originOf(sources, key),
    isUnjudged: (key) => unjudged.some((held) => held === key || isUnder(held, key) || isUnder(key, held)),
  };
}

/** The value to judge, or undefined when only the running process can know it. */
function judgedValue(
  key: string,
  value: PropertyValue,
  resolve: (value: string, path: string) => string,
): string | number | boolean | undefined {
  if (value === null) return undefined; // a database's NULL: nothing to judge
  if (typeof value === 'bigint') return Number(value);
  if (isJavaDouble(value)) return value.value;
  if (typeof value !== 'string') return value;
  if (value.startsWith(CIPHER)) return undefined;
  if (!UNRESOLVED.test(value)) return value;
  let resolved: string;
  try {
    resolved = resolve(value, key);
  } catch {
    return undefined; // past the placeholder limits: the server would refuse to render it, the client to read it
  }
  return UNRESOLVED.test(resolved) ? undefined : resolved;
}

/** `a.b[0].c` → ['a', 'b', 0, 'c'], as the client's bind() reads keys. */
function pathOf(key: string): Array<string | number> {
  const path: Array<string | number> = [];
  for (const part of key.split('.')) {
    const match = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (match === null || !part.includes('[')) {
      if (part !== '') path.push(part);
      continue;
    }
    if (match[1]) path.push(match[1]);
    for (const index of match[2]?.matchAll(/\[(\d+)\]/g) ?? []) path.push(Number(index[1]));
  }
  return path;
}

function insert(root: ConfigObject, path: Array<string | number>, value: ConfigNode): void {
  if (path.some((segment) => typeof segment === 'string' && FORBIDDEN.has(segment))) return;
  let node = root as Record<string | number, ConfigNode>;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i] as string | number;
    let child = node[segment];
    if (typeof child !== 'object') {
      // A key that is both a value and a parent (`a=1`, `a.b=2`): the nested keys win, as in bind().
      child = typeof path[i + 1] === 'number' ? [] : {};
      node[segment] = child;
    }
    node = child as Record<string | number, ConfigNode>;
  }
  const last = path[path.length - 1];
  if (last !== undefined && typeof node[last] !== 'object') node[last] = value;
}

/** Walks the instance along a JSON pointer, writing array positions as `[i]` and properties as `.name`. */
function keyAt(root: ConfigObject, pointer: string): string {
  if (pointer === '') return '';
  let key = '';
  let node: ConfigNode | undefined = root;
  for (const encoded of pointer.slice(1).split('/')) {
    const segment = encoded.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      key += `[${segment}]`;
      node = node[Number(segment)];
    } else {
      key += key === '' ? segment : `.${segment}`;
      node = typeof node === 'object' && node !== null ? node[segment] : undefined;
    }
  }
  return key;
}

function originOf(sources: readonly PropertySource[], key: string): ValueOrigin | undefined {
  for (const source of sources) {
    const held = source.source.has(key)
      ? key
      : [...source.source.keys()].find((candidate) => isUnder(candidate, key));
    if (held === undefined) continue;
    const position = source.origins?.[held];
    const [line, column] = (position ?? '').split(':').map(Number);
    return {
      source: source.name,
      ...(line !== undefined && line > 0 ? { line } : {}),
      ...(column !== undefined && column > 0 ? { column } : {}),
    };
  }
  return undefined;
}

/** Whether `key` names a value under `parent` (`a.b.c` and `a.b[0]` are under `a.b`). */
function isUnder(key: string, parent: string): boolean {
  if (parent === '') return true;
  return key.startsWith(parent) && (key[parent.length] === '.' || key[parent.length] === '[');
}
