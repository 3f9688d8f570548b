/**
 * The settings file: YAML (`application.yml`), or Java properties when its name ends in `.properties`, as
 * Spring Boot reads `spring.config.location`. Pure: the caller reads the file and hands over its text.
 */
import YAML from 'yaml';
import { flattenProperties } from '../codecs/flatten.js';
import { parseProperties } from '../codecs/properties-codec.js';
import { SettingsError } from './settings.js';

/** Flattens a settings file into dotted keys (`a.b[0]` for lists); errors name the file and line. */
export function parseSettingsFile(path: string, text: string): Record<string, unknown> {
  if (path.endsWith('.properties')) return parsePropertiesSettings(path, text);
  const doc = YAML.parseDocument(text, { version: '1.1', uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const line = first?.linePos?.[0]?.line;
    throw new SettingsError(
      `Settings file ${path}${line ? ` line ${line}` : ''} is not valid YAML: ${first?.message.split('\n')[0]}`,
      path,
      'file',
    );
  }
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new SettingsError(`Settings file ${path} must hold a map of settings`, path, 'file');
  }
  return flattenProperties(data);
}

function parsePropertiesSettings(path: string, text: string): Record<string, unknown> {
  try {
    // A settings file has one document; later documents (`#---`) override earlier ones, as in Boot.
    return Object.assign({}, ...parseProperties(text, path).map((doc) => doc.properties)) as Record<
      string,
      unknown
    >;
  } catch (error) {
    throw new SettingsError(
      `Settings file ${path} is not a valid properties file: ${(error as Error).message}`,
      path,
      'file',
    );
  }
}
