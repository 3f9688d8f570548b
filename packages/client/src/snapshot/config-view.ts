/**
 * The typed read API over one snapshot. A view can track what it reads, which is how a
 * refreshable knows whether a refresh concerns it.
 */
import type { PropertyValue } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { BoundSchemas } from './bound-schemas.js';
import { isUnderPrefix, type ConfigSnapshot } from './config-snapshot.js';
import { ConfigClientError } from '../errors.js';
import { toBoolean, toNumber, toText } from './value-coercion.js';

/** Anything with zod's `parse`, or a Standard Schema (`~standard.validate`). */
export type ConfigSchema<T> =
  | { parse(value: unknown): T }
  | {
      readonly '~standard': {
        validate(
          value: unknown,
        ):
          | { value: T; issues?: undefined }
          | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PathSegment> }> }
          | Promise<unknown>;
      };
    };
type PathSegment = PropertyKey | { key: PropertyKey };

export type BoundValue = PropertyValue | BoundObject | BoundValue[];
export interface BoundObject {
  [key: string]: BoundValue;
}

export interface ConfigView {
  get(key: string): PropertyValue | undefined;
  has(key: string): boolean;
  getString(key: string): string | undefined;
  getString(key: string, defaultValue: string): string;
  getNumber(key: string): number | undefined;
  getNumber(key: string, defaultValue: number): number;
  getBoolean(key: string): boolean | undefined;
  getBoolean(key: string, defaultValue: boolean): boolean;
  getOrThrow(key: string): PropertyValue;
  /**
   * The keys under `prefix` as a nested object (`a.b[0].c` → `{a:{b:[{c}]}}`), optionally validated. A prefix
   * that is itself a list (`tags[0]`, `tags[1]`) binds as an array: `bind<BoundValue[]>('tags')`, or a schema.
   */
  bind<R extends BoundObject | BoundValue[] = BoundObject>(prefix: string): R;
  bind<T>(prefix: string, schema: ConfigSchema<T>): T;
}

export interface ReadTracker {
  readonly keys: Set<string>;
  readonly prefixes: Set<string>;
}

export function newTracker(): ReadTracker {
  return { keys: new Set(), prefixes: new Set() };
}

/** Whether a change to `changed` keys concerns what `tracker` read. */
export function isAffected(tracker: ReadTracker, changed: readonly string[]): boolean {
  for (const key of changed) {
    if (tracker.keys.has(key)) return true;
    for (const prefix of tracker.prefixes) if (isUnderPrefix(key, prefix)) return true;
  }
  return false;
}

export class SnapshotView implements ConfigView {
  /** Records each key read into the tracker; made once per view, not once per read. */
  readonly #onRead: ((key: string) => void) | undefined;

  constructor(
    private readonly snapshot: () => ConfigSnapshot,
    private readonly tracker?: ReadTracker,
    /** Where bind() remembers its schemas, so refreshes are checked against them (bound-schemas.ts). */
    private readonly schemas?: BoundSchemas,
  ) {
    const keys = tracker?.keys;
    this.#onRead = keys ? (key) => void keys.add(key) : undefined;
  }

  get(key: string): PropertyValue | undefined {
    return this.snapshot().resolve(key, this.#onRead);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  getString(key: string): string | undefined;
  getString(key: string, defaultValue: string): string;
  getString(key: string, defaultValue?: string): string | undefined {
    const value = this.get(key);
    return value === undefined ? defaultValue : toText(value);
  }

  getNumber(key: string): number | undefined;
  getNumber(key: string, defaultValue: number): number;
  getNumber(key: string, defaultValue?: number): number | undefined {
    const value = this.get(key);
    return value === undefined ? defaultValue : toNumber(key, value);
  }

  getBoolean(key: string): boolean | undefined;
  getBoolean(key: string, defaultValue: boolean): boolean;
  getBoolean(key: string, defaultValue?: boolean): boolean | undefined {
    const value = this.get(key);
    return value === undefined ? defaultValue : toBoolean(key, value);
  }

  getOrThrow(key: string): PropertyValue {
    const value = this.get(key);
    if (value === undefined) {
      const layers = this.snapshot()
        .layers.map((layer) => layer.name)
        .join(', ');
      throw new ConfigClientError(
        'CONFBUS_MISSING_KEY',
        `Configuration key '${key}' is not set (looked in: ${layers})`,
      );
    }
    return value;
  }

  bind<R extends BoundObject | BoundValue[] = BoundObject>(prefix: string): R;
  bind<T>(prefix: string, schema: ConfigSchema<T>): T;
  bind<T>(prefix: string, schema?: ConfigSchema<T>): T | BoundObject | BoundValue[] {
    this.tracker?.prefixes.add(prefix);
    const snapshot = this.snapshot();
    const keys = snapshot.keysUnder(prefix);
    // A prefix that is itself a list (`prefix[0]`, `prefix[1]`) binds as an array, as Boot's binder gives a List.
    const isList = keys.length > 0 && keys.every((key) => key[prefix.length] === '[');
    const root: BoundObject | BoundValue[] = isList ? [] : {};
    const offset = prefix === '' ? 0 : prefix.length + 1;
    for (const key of keys) {
      const value = snapshot.resolve(key, this.#onRead);
      if (value === undefined) continue;
      // `prefix[0]` binds as a list element of the prefix itself: strip only the dot.
      const rest = key[prefix.length] === '[' ? key.slice(prefix.length) : key.slice(offset);
      insert(root, parsePath(rest), value);
    }
    if (!schema) return root;
    const value = validate(prefix, root, schema);
    this.schemas?.add(prefix, schema as ConfigSchema<unknown>);
    return value;
  }
}

function parsePath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const part of path.split('.')) {
    // Most parts name no list element: no regex for them (a refresh rebinds every key it changed).
    if (!part.includes('[')) {
      if (part !== '') out.push(part);
      continue;
    }
    const match = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      out.push(part);
      continue;
    }
    if (match[1]) out.push(match[1]);
    for (const index of match[2]?.matchAll(/\[(\d+)\]/g) ?? []) out.push(Number(index[1]));
  }
  return out;
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

function insert(root: BoundObject | BoundValue[], path: Array<string | number>, value: PropertyValue): void {
  for (const segment of path) if (typeof segment === 'string' && FORBIDDEN.has(segment)) return;
  let node: Record<string | number, BoundValue> = root as Record<string | number, BoundValue>;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i]!;
    const nextIsIndex = typeof path[i + 1] === 'number';
    let child = node[segment];
    if (typeof child !== 'object' || child === null) {
      // A key that is both a leaf and a parent (`a=1`, `a.b=2`): the nested keys win.
      child = nextIsIndex ? [] : {};
      node[segment] = child;
    }
    node = child as Record<string | number, BoundValue>;
  }
  const last = path[path.length - 1];
  if (last === undefined) return;
  if (typeof node[last] === 'object' && node[last] !== null) return;
  node[last] = value;
}

function validate<T>(prefix: string, value: BoundObject | BoundValue[], schema: ConfigSchema<T>): T {
  const where = prefix === '' ? 'the configuration' : `'${prefix}'`;
  const describe = (issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PathSegment> }>) =>
    issues
      .map((issue) => {
        const path = (issue.path ?? []).map((s) => String(typeof s === 'object' ? s.key : s));
        const full = [prefix, ...path].filter((part) => part !== '').join('.');
        return `${full || prefix || '(root)'}: ${issue.message}`;
      })
      .join('; ');
  if ('parse' in schema) {
    try {
      return schema.parse(value);
    } catch (error) {
      const issues = (error as { issues?: unknown }).issues;
      const message = Array.isArray(issues)
        ? describe(issues as Array<{ message: string; path?: PathSegment[] }>)
        : messageOf(error);
      throw new ConfigClientError('CONFBUS_BIND', `Invalid configuration under ${where}: ${message}`, {
        cause: error,
      });
    }
  }
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) {
    throw new ConfigClientError(
      'CONFBUS_BIND',
      `The schema for ${where} is asynchronous; bind() needs a sync one`,
    );
  }
  const checked = result as { value?: T; issues?: ReadonlyArray<{ message: string; path?: PathSegment[] }> };
  if (checked.issues) {
    throw new ConfigClientError(
      'CONFBUS_BIND',
      `Invalid configuration under ${where}: ${describe(checked.issues)}`,
    );
  }
  return checked.value as T;
}
