/**
 * The console's views of a resolved environment: each effective property with the file (and document) it comes
 * from and the values it overrides, and the difference between two environments. They read the environment
 * exactly as clients are served it (server-side decryption done, `spring.cloud.config.server.overrides` first),
 * so the console shows what clients get. Values are masked exactly as `/actuator/env` masks them
 * (maskPropertyValue) before they leave this module, so no secret reaches the API; a key that is `{cipher}` text
 * in any file of the environment is masked whatever its name, also where the server decrypted it for clients,
 * as the client's /actuator/env masks what it decrypted. Values are shown as served (placeholders unresolved,
 * as Spring's environment JSON shows them): resolving `${db.password}` inside a harmless key would carry a
 * secret past the mask.
 */

import {
  type ConsoleEnvironmentChanges,
  type ConsoleProperty,
  type ConsolePropertyOrigin,
  type Environment,
  type FlatProperties,
  type PropertySource,
  type PropertyValue,
  isCipherValue,
  maskPropertyValue,
  maskValue,
  mergeForRendering,
} from '@confbus/core';
import { samePropertyValue } from '@confbus/core/internal';

/** An environment as served, with the one it was built from (a ResolvedEnvironment is one). */
export interface ServedEnvironment {
  /** What clients receive: decrypted, overrides first (the environment endpoint's answer). */
  readonly environment: Environment;
  /** As the repository holds it: tells which values were `{cipher}` text before decryption. */
  readonly stored: Environment;
}

type Shown = (key: string, value: PropertyValue) => PropertyValue;

/** How the console may show the values of one served environment. */
function maskFor(served: ServedEnvironment): Shown {
  const encrypted = new Set<string>();
  if (served.stored !== served.environment)
    for (const { source } of served.stored.propertySources)
      for (const [key, value] of source) if (isCipherValue(value)) encrypted.add(key);
  return (key, value) =>
    isCipherValue(value) || encrypted.has(key) ? maskValue() : maskPropertyValue(key, value);
}

// The console API's shapes with the values as the server holds them (writeJson prints them as JSON numbers).
export type EffectiveProperty = ConsoleProperty<PropertyValue>;
export type EnvironmentDiff = ConsoleEnvironmentChanges<PropertyValue>;

/** Effective properties, sorted by key, masked. `uri`: the property-source name prefix (the display URI). */
export function effectiveProperties(served: ServedEnvironment, uri: string): EffectiveProperty[] {
  const { environment } = served;
  const shown = maskFor(served);
  const merged = mergeForRendering(environment.propertySources);
  const origins = environment.propertySources.map((source) => originOf(source, uri));
  const out: EffectiveProperty[] = [];
  for (const [key, value] of merged) {
    const holders = environment.propertySources
      .map((source, index) => ({ source, origin: origins[index] as ConsolePropertyOrigin }))
      .filter(({ source }) => source.source.has(key));
    const [winner, ...rest] = holders;
    out.push({
      key,
      value: shown(key, value),
      origin: winner?.origin ?? { file: '' },
      overridden: rest.map(({ source, origin }) => ({
        value: shown(key, source.source.get(key) as PropertyValue),
        origin,
      })),
    });
  }
  return out.sort((a, b) => compareKeys(a.key, b.key));
}

/** The merged, masked properties, for downloads. */
export function maskedProperties(served: ServedEnvironment): FlatProperties {
  const shown = maskFor(served);
  const merged = mergeForRendering(served.environment.propertySources);
  const out = new Map<string, PropertyValue>();
  for (const [key, value] of merged) out.set(key, shown(key, value));
  return out;
}

/**
 * Added, removed and changed effective keys from `before` to `after`, each sorted by key, masked. Served values
 * are compared, so a value encrypted again (new cipher text, same plain text) is no change, as clients see it.
 */
export function diffEnvironments(
  before: ServedEnvironment | undefined,
  after: ServedEnvironment,
): EnvironmentDiff {
  const from: FlatProperties = before ? mergeForRendering(before.environment.propertySources) : new Map();
  const to = mergeForRendering(after.environment.propertySources);
  const shownAfter = maskFor(after);
  const shownBefore = before ? maskFor(before) : shownAfter;
  const diff: EnvironmentDiff = { added: [], removed: [], changed: [] };
  for (const [key, value] of to) {
    if (!from.has(key)) diff.added.push({ key, value: shownAfter(key, value) });
    else if (!samePropertyValue(from.get(key), value))
      diff.changed.push({
        key,
        from: shownBefore(key, from.get(key) as PropertyValue),
        to: shownAfter(key, value),
      });
  }
  for (const [key, value] of from)
    if (!to.has(key)) diff.removed.push({ key, value: shownBefore(key, value) });
  for (const list of [diff.added, diff.removed, diff.changed]) list.sort((a, b) => compareKeys(a.key, b.key));
  return diff;
}

/** `<uri>/<path> (document #N)` → file and document. */
function originOf(source: PropertySource, uri: string): ConsolePropertyOrigin {
  const base = `${uri.replace(/\/+$/, '')}/`;
  let name = source.name.startsWith(base) ? source.name.slice(base.length) : source.name;
  const document = / \(document #(\d+)\)$/.exec(name);
  if (!document) return { file: name };
  name = name.slice(0, document.index);
  return { file: name, document: Number(document[1]) };
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
