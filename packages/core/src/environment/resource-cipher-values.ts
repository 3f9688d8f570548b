/**
 * The `{cipher}` string values of a plain-text resource (`.yml`, `.yaml`, `.properties`, `.json`), found the
 * way Spring's CipherResource*Encryptors find them: values only (never keys), trimmed, each once.
 */
import { Properties } from 'properties-file/parser';
import { yamlLibrary } from '../codecs/yaml-library.js';

const CIPHER = '{cipher}';

/** Empty for other extensions. A `.json` file that does not parse throws (Spring answers 500 too). */
export function cipherValuesIn(text: string, extension: string): Set<string> {
  const values = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string' && value.startsWith(CIPHER)) values.add(value.trim());
  };
  if (extension === '.yml' || extension === '.yaml') {
    const { isScalar, parseAllDocuments, visit } = yamlLibrary();
    for (const document of parseAllDocuments(text)) {
      visit(document, {
        Pair(_key, pair) {
          if (isScalar(pair.value)) add(pair.value.value);
        },
        Seq(_key, seq) {
          for (const item of seq.items) if (isScalar(item)) add(item.value);
        },
      });
    }
  } else if (extension === '.json') {
    walkJson(JSON.parse(text) as unknown, add);
  } else if (extension === '.properties') {
    for (const node of new Properties(text).getProperties()) add(node.value);
  }
  return values;
}

function walkJson(value: unknown, add: (value: unknown) => void): void {
  if (Array.isArray(value)) for (const item of value) walkJson(item, add);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) walkJson(item, add);
  else add(value);
}
