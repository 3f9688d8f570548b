/**
 * Entry point for configuration files: picks the codec from the file name.
 */
import { ConfigParseError, type ConfigDocument } from './config-document.js';
import { parseProperties } from './properties-codec.js';
import { parseYaml } from './yaml-codec.js';

export { ConfigParseError, type ConfigDocument, type ConfigParseErrorDetails } from './config-document.js';

const CONFIG_FILE = /\.(?:ya?ml|properties)$/i;

/** True for the extensions Spring's config data loaders read (`.properties`, `.yml`, `.yaml`). */
export function isConfigFileName(path: string): boolean {
  return CONFIG_FILE.test(path);
}

export function parseConfigFile(path: string, text: string): ConfigDocument[] {
  const lower = path.toLowerCase();
  if (lower.endsWith('.properties')) return parseProperties(text, path);
  if (lower.endsWith('.yml') || lower.endsWith('.yaml')) return parseYaml(text, path);
  throw new ConfigParseError(path, 'not a configuration file (expected .properties, .yml or .yaml)');
}
