/**
 * The settings file (`application.yml`, or `spring.config.location`): one reader for the CLI and the client.
 * Core does no I/O, so the caller hands in how to read a file (`readFileSync` fits).
 */
import { resolve } from 'node:path';
import { canonicalKey } from './relaxed-names.js';
import { parseArguments, SettingsError } from './settings-resolver.js';

export interface SettingsFileLocation {
  readonly path: string;
  /** `optional:FILE`: a missing file is not an error. */
  readonly optional: boolean;
}

/** Spring's `optional:` and `file:` prefixes are accepted and removed; blank means "not given". */
export function parseSettingsFileLocation(raw: string | undefined): SettingsFileLocation | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let path = raw.trim();
  const optional = path.startsWith('optional:');
  if (optional) path = path.slice('optional:'.length);
  if (path.startsWith('file:')) path = path.slice('file:'.length);
  return { path, optional };
}

/**
 * Where the settings file is: `--spring.config.location=FILE`, else `SPRING_CONFIG_LOCATION`, else undefined
 * (callers then try `application.yml` in the working directory).
 */
export function settingsFileLocation(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): SettingsFileLocation | undefined {
  const fromArgs = parseArguments(args).pairs.find(
    ([key]) => canonicalKey(key) === 'spring.config.location',
  )?.[1];
  return parseSettingsFileLocation(fromArgs ?? env.SPRING_CONFIG_LOCATION);
}

/**
 * Reads the file at `location` (relative to `cwd`), or `./application.yml` when none is given. Undefined when
 * the file is missing and that is allowed: no location, or an `optional:` one. `readText` throws Node's
 * errors (ENOENT for a missing file).
 */
export function readSettingsFile(
  location: SettingsFileLocation | undefined,
  cwd: string,
  readText: (path: string) => string,
): { path: string; text: string } | undefined {
  const path = resolve(cwd, location?.path ?? 'application.yml');
  try {
    return { path, text: readText(path) };
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing && (location === undefined || location.optional)) return undefined;
    throw new SettingsError(
      `Cannot read settings file ${path}: ${(error as Error).message}`,
      'spring.config.location',
      'argument',
    );
  }
}
