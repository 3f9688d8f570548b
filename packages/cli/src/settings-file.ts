/** Reads the YAML settings file named by the arguments/environment, or ./application.yml if present. */
import { readFileSync } from 'node:fs';
import { readSettingsFile as readSettingsFileAt, settingsFileLocation } from '@confbus/core';

export function readSettingsFile(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd = process.cwd(),
): { path: string; text: string } | undefined {
  return readSettingsFileAt(settingsFileLocation(args, env), cwd, (path) => readFileSync(path, 'utf8'));
}
