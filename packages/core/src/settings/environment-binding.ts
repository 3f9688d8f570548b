/**
 * Environment variables as settings. Any upper-case variable whose name, separators dropped, spells a
 * setting binds it (`SERVER_PORT`, `SPRING_CLOUD_CONFIG_SERVER_GIT_DEFAULTLABEL` or `..._DEFAULT_LABEL`,
 * `..._SEARCHPATHS_0` for a list item). Below a map setting, a variable binds the entry Spring Boot's
 * SystemEnvironmentPropertySource makes of it: each `_` a dot, names lower-cased, numbers list indexes
 * (`SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_URI` → `...git.repos.teama.uri`, `..._OVERRIDES_FOO` →
 * `...overrides.foo`). A `SPRING_`/`CONFBUS_` variable that spells no setting is reported with the same
 * "did you mean" as an argument, since a typo there is otherwise silently ignored.
 */
import { environmentFlatName, environmentNamesFor, flatKey } from './relaxed-names.js';
import type { SettingSpec } from './setting-spec.js';
import type { SettingsIndex } from './settings-index.js';
import { nearestSetting } from './setting-suggestions.js';
import { unsupportedSettingMessage } from './unsupported-setting.js';
import { SettingsError } from './settings.js';

const VARIABLE_NAME = /^[A-Z][A-Z0-9_]*$/;
const OWN_PREFIXES = ['SPRING_', 'CONFBUS_'];

export function environmentPairs(
  env: Readonly<Record<string, string | undefined>>,
  index: SettingsIndex,
  unknownKeys: 'error' | 'keep',
  specs: readonly SettingSpec[],
): { pairs: Array<[string, string]>; warnings: string[] } {
  // Keyed by the setting (and list index), so Boot's own spelling wins over `_` for `-` when both are set.
  const chosen = new Map<string, { name: string; key: string; value: string }>();
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value === undefined || !VARIABLE_NAME.test(name)) continue;
    const { flat, index: item } = environmentFlatName(name);
    const target = index.targetOfEnvironmentName(flat, item);
    if (target.kind === 'setting' || target.kind === 'list-item') {
      const key = target.kind === 'setting' ? target.spec.key : `${target.spec.key}[${target.index}]`;
      const bootName = environmentNamesFor(key)[0];
      const previous = chosen.get(key);
      if (previous === undefined || name === bootName) chosen.set(key, { name, key, value });
      continue;
    }
    const mapKey = target.kind === 'map-entry' ? mapEntryKey(name, index.mapPrefixKeys) : undefined;
    if (mapKey !== undefined) {
      chosen.set(mapKey, { name, key: mapKey, value });
      continue;
    }
    if (!OWN_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    if (target.kind === 'unsupported') {
      const message = unsupportedSettingMessage(name, 'environment', target.entry);
      if (target.entry.effect === 'refuse') throw new SettingsError(message, name, 'environment');
      warnings.push(message);
    } else if (target.kind === 'unknown' || target.kind === 'map-entry') {
      const warning = unknownVariableWarning(name, specs, unknownKeys);
      if (warning) warnings.push(warning);
    }
  }
  return { pairs: [...chosen.values()].map(({ key, value }) => [key, value]), warnings };
}

/**
 * The map entry a variable names, as Boot's SystemEnvironmentPropertyMapper reads it: the elements between `_`
 * lower-cased, a numeric element a list index. Undefined unless the name starts with a map setting's elements
 * and names an entry below it (`..._REPOSITORY_URI` is not below `..._REPOS`).
 */
function mapEntryKey(name: string, mapKeys: readonly string[]): string | undefined {
  const elements = name
    .split('_')
    .filter((element) => element !== '')
    .map((element) => element.toLowerCase());
  for (const mapKey of mapKeys) {
    const wanted = flatKey(mapKey);
    let flat = '';
    let used = 0;
    while (used < elements.length && flat.length < wanted.length) flat += elements[used++];
    const rest = elements.slice(used);
    if (flat !== wanted || rest.length === 0 || /^\d+$/.test(rest[0] ?? '')) continue;
    const entry = rest.map((element) => (/^\d+$/.test(element) ? `[${element}]` : `.${element}`)).join('');
    return `${mapKey}${entry}`;
  }
  return undefined;
}

function unknownVariableWarning(
  name: string,
  specs: readonly SettingSpec[],
  unknownKeys: 'error' | 'keep',
): string | undefined {
  const near = nearestSetting(name.toLowerCase().replace(/_/g, '.'), specs);
  // A client application may read its own SPRING_ variables: only a near miss is worth a word there.
  if (!near && unknownKeys === 'keep') return undefined;
  const hint = near ? ` Did you mean ${environmentNamesFor(near.key)[0]} (${near.key})?` : '';
  return `Environment variable ${name} names no confbus setting (ignored).${hint}`;
}
