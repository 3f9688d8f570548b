/**
 * The client's own settings: arguments, programmatic overrides, environment variables, the settings file
 * (`spring.config.location`, else `./application.yml`) and the application's defaults, in that order.
 */
import { readFileSync } from 'node:fs';
import {
  parseSettingsFileLocation,
  readSettingsFile,
  resolveSettings,
  type SettingValue,
  type Settings,
} from '@confbus/core';
import { clientSettingSpecs } from './client-setting-specs.js';

export interface LocalSettingsSources {
  /** Command-line arguments, `--key=value` (default: none; pass `process.argv.slice(2)`). */
  readonly args?: readonly string[];
  /** Environment variables (default: `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Programmatic settings, between arguments and environment variables. */
  readonly overrides?: Readonly<Record<string, SettingValue | undefined>>;
  /** An application's own defaults: below every source (e.g. its management exposure list). */
  readonly defaults?: Readonly<Record<string, SettingValue>>;
  /** Where `application.yml` is looked for (default: `process.cwd()`). */
  readonly cwd?: string;
}

/** Arguments, overrides and environment name the settings file; then everything is resolved with it. */
export function resolveLocalSettings(
  sources: LocalSettingsSources,
  env: Readonly<Record<string, string | undefined>>,
): Settings {
  const input = { args: sources.args ?? [], env, overrides: sources.overrides ?? {} };
  const defaults = sources.defaults ?? {};
  const specs = clientSettingSpecs.map((spec) =>
    Object.hasOwn(defaults, spec.key) ? { ...spec, default: defaults[spec.key] } : spec,
  );
  const first = resolveSettings(specs, input, { unknownKeys: 'keep' });
  const file = readSettingsFile(
    parseSettingsFileLocation(first.optionalString('spring.config.location')),
    sources.cwd ?? process.cwd(),
    (path) => readFileSync(path, 'utf8'),
  );
  if (!file) return first;
  return resolveSettings(specs, { ...input, file }, { unknownKeys: 'keep' });
}
