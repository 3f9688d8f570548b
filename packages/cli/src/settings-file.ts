/** Reads the YAML settings file named by the arguments/environment, or ./application.yml if present. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SettingsError, settingsFileLocation } from '@confbus/core';

export function readSettingsFile(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd = process.cwd(),
): { path: string; text: string } | undefined {
  const location = settingsFileLocation(args, env);
  const path = resolve(cwd, location?.path ?? 'application.yml');
  try {
    return { path, text: readFileSync(path, 'utf8') };
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
