/**
 * Reading the settings file (`application.yml`, or `spring.config.location`): one reader for the CLI and the client.
 * Core does no I/O, so the caller hands in how to read a file (`readFileSync` fits).
 */
import { resolve } from 'node:path';
import type { SettingsFileLocation } from './settings-file-location.js';
import { SettingsError } from './settings.js';

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
