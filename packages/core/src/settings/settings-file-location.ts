/**
 * Where the settings file is (`spring.config.location`): from the arguments, else the environment, with Spring's
 * `optional:` and `file:` prefixes.
 */
import { parseArguments } from './settings-resolver.js';
import { SettingsIndex } from './settings-index.js';

/**
 * Where the settings file is: `--spring.config.location=FILE`, else `SPRING_CONFIG_LOCATION`, else undefined
 * (callers then try `application.yml` in the working directory). Spring's `optional:` and `file:` prefixes
 * are accepted and removed.
 */
export function settingsFileLocation(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): SettingsFileLocation | undefined {
  const location = new SettingsIndex(
    [{ key: 'spring.config.location', type: 'string', description: '' }],
    [],
  );
  const fromArgs = parseArguments(args).pairs.find(([key]) => location.targetOf(key).kind === 'setting')?.[1];
  return parseSettingsFileLocation(fromArgs ?? env.SPRING_CONFIG_LOCATION);
}

export interface SettingsFileLocation {
  readonly path: string;
  /** `optional:FILE`: a missing file is not an error. */
  readonly optional: boolean;
}

/** A `spring.config.location` value: Spring's `optional:` and `file:` prefixes removed; blank is "not given". */
export function parseSettingsFileLocation(raw: string | undefined): SettingsFileLocation | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let path = raw.trim();
  const optional = path.startsWith('optional:');
  if (optional) path = path.slice('optional:'.length);
  if (path.startsWith('file:')) path = path.slice('file:'.length);
  return { path, optional };
}
