/**
 * The child's environment: the inherited one plus the configuration's keys as variables (environment-names.ts),
 * optionally behind a prefix and limited to an allow-list. The inherited variables win unless `override` is
 * set, as Spring Boot's own environment variables outrank what a config server sends only when
 * `spring.cloud.config.override-system-properties` says so. Keys that cannot be variables are left out with a
 * warning naming the key, never the value.
 */
import { springEnvironmentName } from './environment-names.js';

export interface ChildEnvironmentOptions {
  /** Put before every variable name (`APP_` → `APP_GROUP_COMMENT`). */
  readonly prefix: string;
  /** Keys (and what lies below them) to export; empty = every key. Compared by variable name, so relaxed. */
  readonly include: readonly string[];
  /** The configuration's value replaces a variable the child would inherit. */
  readonly override: boolean;
}

export interface ConfigEntries {
  /** The keys to export, highest precedence first. */
  readonly keys: readonly string[];
  /** The key's value, placeholders resolved; undefined when it has none. */
  value(key: string): string | undefined;
}

export interface ChildEnvironment {
  readonly env: Record<string, string>;
  /** Variables set from the configuration (name → key), for the DEBUG line and tests. */
  readonly exported: ReadonlyMap<string, string>;
  /** Why some keys were left out; no values in them. */
  readonly warnings: readonly string[];
}

export function buildChildEnvironment(
  config: ConfigEntries,
  inherited: Readonly<Record<string, string | undefined>>,
  options: ChildEnvironmentOptions,
): ChildEnvironment {
  const includeNames = options.include.map((key) => springEnvironmentName(key) ?? key.toUpperCase());
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) if (value !== undefined) env[name] = value;
  const exported = new Map<string, string>();
  const warnings: string[] = [];
  for (const key of config.keys) {
    const name = springEnvironmentName(key);
    if (name === undefined) {
      warnings.push(`Key '${key}' has no environment variable name (left out)`);
      continue;
    }
    if (includeNames.length > 0 && !includeNames.some((allowed) => isAtOrUnder(name, allowed))) continue;
    const variable = options.prefix + name;
    const owner = exported.get(variable);
    if (owner !== undefined) {
      // Two spellings of one key (`my-key`, `myKey`): the first, of higher precedence, is what Boot would bind.
      if (owner !== key)
        warnings.push(`Keys '${owner}' and '${key}' both map to ${variable}: '${owner}' wins`);
      continue;
    }
    const value = config.value(key);
    if (value === undefined) continue;
    if (value.includes('\0')) {
      warnings.push(`Key '${key}' has a NUL character, which no environment variable can hold (left out)`);
      continue;
    }
    exported.set(variable, key);
    if (options.override || inherited[variable] === undefined) env[variable] = value;
  }
  return { env, exported, warnings };
}

/** `GROUP_COMMENT` is at or under `GROUP`; `GROUPS` is not. */
function isAtOrUnder(name: string, allowed: string): boolean {
  return name === allowed || name.startsWith(`${allowed}_`);
}

/** Whether two environments differ in any variable (what decides a restart). */
export function environmentsDiffer(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return true;
  return aKeys.some((name) => a[name] !== b[name]);
}
