/**
 * The settings file: YAML (`application.yml`), or Java properties when its name ends in `.properties`, as
 * Spring Boot reads `spring.config.location`. Pure: the caller reads the file and hands over its text.
 */
import { ConfigParseError } from '../codecs/config-document.js';
import { parseProperties } from '../codecs/properties-codec.js';
import { parseYaml } from '../codecs/yaml-codec.js';
import { SettingsError } from './settings.js';

/**
 * Flattens a settings file into dotted keys (`a.b[0]` for lists); errors name the file and line. YAML goes
 * through the same codec as the repository's files, so values are typed as SnakeYAML (Spring Boot) types them
 * (`y`/`n` stay text, `on`/`off` are booleans) and the same size limits apply.
 */
export function parseSettingsFile(path: string, text: string): Record<string, unknown> {
  if (path.endsWith('.properties')) return parsePropertiesSettings(path, text);
  let documents;
  try {
    documents = parseYaml(text, path);
  } catch (error) {
    if (!(error instanceof ConfigParseError)) throw error;
    const line = error.line === undefined ? '' : ` line ${error.line}`;
    throw new SettingsError(
      `Settings file ${path}${line} is not valid YAML: ${error.reason.split('\n')[0]}`,
      path,
      'file',
    );
  }
  if (documents.length > 1) {
    throw new SettingsError(
      `Settings file ${path} holds ${documents.length} YAML documents; confbus reads one (use separate files per profile)`,
      path,
      'file',
    );
  }
  const [document] = documents;
  if (document === undefined) return {};
  // The codec keeps a top-level scalar or list under `document` (Spring's YamlProcessor, for repository files);
  // a settings file needs a map, unless `document:` really is one of its keys.
  const keys = [...document.properties.keys()];
  if (keys.every((key) => /^document(\[|$)/.test(key)) && !/^document\s*:/m.test(text)) {
    throw new SettingsError(`Settings file ${path} must hold a map of settings`, path, 'file');
  }
  return Object.fromEntries(document.properties);
}

function parsePropertiesSettings(path: string, text: string): Record<string, unknown> {
  try {
    // A settings file has one document; later documents (`#---`) override earlier ones, as in Boot.
    return Object.fromEntries(parseProperties(text, path).flatMap((doc) => [...doc.properties]));
  } catch (error) {
    throw new SettingsError(
      `Settings file ${path} is not a valid properties file: ${(error as Error).message}`,
      path,
      'file',
    );
  }
}
