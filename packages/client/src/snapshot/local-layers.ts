/**
 * The local settings as property layers, split where Spring splits them so the remote configuration can be
 * placed between them (remote-placement.ts): what the process was started with (arguments, programmatic
 * overrides, environment variables), the settings file, and the defaults (the settings' own and the
 * application's `defaults`, for keys nobody else sets — Spring's `defaultProperties`, always last).
 */
import type { PropertyValue, SettingValue, Settings } from '@confbus/core';
import { canonicalKey, environmentNamesFor } from '@confbus/core/internal';
import type { PropertyLayer } from './config-snapshot.js';

export interface LocalLayers {
  /** Arguments, programmatic overrides and environment variables (relaxed: `GROUP_COMMENT` for `group.comment`). */
  readonly system: PropertyLayer;
  /** The settings file (`application.yml`). */
  readonly file: PropertyLayer;
  /** The settings' defaults and the application's `defaults`. */
  readonly defaults: PropertyLayer;
}

/** Keys whose environment lookup is remembered: every key a configuration has, with room (reads of absent keys too). */
const MAX_CACHED_LOOKUPS = 10_000;

const asProperty = (value: SettingValue): PropertyValue =>
  typeof value === 'object' ? value.join(',') : value;

export function localLayers(
  settings: Settings,
  env: Readonly<Record<string, string | undefined>>,
  applicationDefaults: Readonly<Record<string, SettingValue>> = {},
): LocalLayers {
  const system = new Map<string, PropertyValue>();
  const file = new Map<string, PropertyValue>();
  const defaults = new Map<string, PropertyValue>();
  for (const [key, value] of Object.entries(applicationDefaults))
    defaults.set(canonicalKey(key), asProperty(value));
  for (const [key, value] of settings.entries()) {
    const source = settings.sourceOf(key);
    const into = source === 'file' ? file : source === 'default' ? defaults : system;
    into.set(key, asProperty(value));
  }
  // Every refresh reads every key (diff, decryption): the names to look up are worked out once per key.
  const lookups = new Map<string, { canonical: string; envNames: string[] | undefined }>();
  const lookupOf = (key: string) => {
    let lookup = lookups.get(key);
    if (lookup === undefined) {
      const canonical = canonicalKey(key);
      // The resolver maps variables only for declared keys; any other key is looked up under its relaxed names.
      lookup = { canonical, envNames: system.has(canonical) ? undefined : environmentNamesFor(key) };
      if (lookups.size < MAX_CACHED_LOOKUPS) lookups.set(key, lookup);
    }
    return lookup;
  };
  return {
    system: {
      name: 'localSettings',
      get(key) {
        const { canonical, envNames } = lookupOf(key);
        if (envNames === undefined) return system.get(canonical);
        for (const name of envNames) {
          const fromEnv = env[name];
          if (fromEnv !== undefined) return fromEnv;
        }
        return undefined;
      },
      keys: () => system.keys(),
    },
    file: mapOf('localSettings:file', file),
    defaults: mapOf('localSettings:defaults', defaults),
  };
}

function mapOf(name: string, values: ReadonlyMap<string, PropertyValue>): PropertyLayer {
  return { name, get: (key) => values.get(canonicalKey(key)), keys: () => values.keys() };
}
