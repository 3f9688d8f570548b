/**
 * The config server's file-format outputs (Spring reference §2): the merged view of an
 * environment as `.properties`, `.yml` and `.json`.
 */
import type { FlatProperties, PropertyValue } from '../codecs/flatten.js';
import { writeJson } from '../codecs/json-codec.js';
import type { PropertySource } from './environment.js';
import { type RenderingPlaceholders, renderingPlaceholders } from './placeholders.js';
import { buildPropertyTree, type TreeList, type TreeMap, type TreeNode } from './property-tree.js';
import { simpleYamlKey, yamlScalar } from './yaml-scalars.js';

export type RenderFormat = 'properties' | 'yml' | 'json';

/**
 * An environment (sources highest precedence first) in one of the file formats, as Spring's
 * EnvironmentController (5.0.4+) writes it: the merged properties; with `resolvePlaceholders`, their `${...}`
 * resolved against the sources (renderingPlaceholders): in the `.properties` text once it is written, and in
 * `.yml`/`.json` value by value before the file is written (map keys left alone, keys of placeholders stripped),
 * so a resolved value is a string (`enabled: 'false'`) and a multi-line one a YAML block. `name` is what a
 * placeholder limit error names when the placeholder's key is in no source.
 */
export function renderEnvironment(
  sources: readonly PropertySource[],
  format: RenderFormat,
  options: { readonly resolvePlaceholders: boolean; readonly name: string } & YamlRenderOptions,
  merged: FlatProperties = mergeForRendering(sources),
): string {
  const placeholders = options.resolvePlaceholders ? renderingPlaceholders(sources, options.name) : undefined;
  if (format === 'properties') {
    const text = renderProperties(merged);
    return placeholders ? placeholders.inText(text) : text;
  }
  const written = buildPropertyTree(merged);
  const tree = placeholders ? (resolveValues(written, placeholders, '') as TreeMap) : written;
  if (format === 'json') return writeJson(tree);
  return yamlOf(tree, options.stripDocument ?? true);
}

/**
 * Merges sources (highest precedence first) as Spring's `convertToProperties` (5.x) does: lowest first, an
 * overwritten key keeps its first position, and `spring.profiles` is dropped. Lists (keys with `[`) are
 * grouped by the prefix before the first `[`: a higher source replaces a whole group, and the groups come
 * after every other key, in the order each group first appeared.
 */
export function mergeForRendering(sources: readonly PropertySource[]): FlatProperties {
  const combined = new Map<string, PropertyValue>();
  const lists = new Map<string, Map<string, PropertyValue>>();
  for (const { source } of [...sources].reverse()) {
    // One pass per source, grouping list keys by stem (comparing every key with every other was quadratic:
    // 59,000 list keys from a small alias-heavy file took 34 s).
    const listsOfSource = new Map<string, Map<string, PropertyValue>>();
    for (const [key, value] of source) {
      const bracket = key.indexOf('[');
      if (bracket === -1) {
        combined.set(key, value);
        continue;
      }
      const stem = key.slice(0, bracket);
      if (!listsOfSource.has(stem)) listsOfSource.set(stem, new Map());
      listsOfSource.get(stem)!.set(key, value);
    }
    for (const [stem, group] of listsOfSource) lists.set(stem, group);
  }
  combined.delete('spring.profiles');
  for (const group of lists.values()) for (const [key, value] of group) combined.set(key, value);
  return combined;
}

/** `key: value` lines in insertion order, joined by `\n`, no trailing newline, no escaping. */
export function renderProperties(flat: FlatProperties): string {
  return Array.from(flat, ([key, value]) => `${key}: ${String(value)}`).join('\n');
}

/** spring.cloud.config.server.strip-document-from-yaml: a tree of the one key `document` is dumped as itself. */
function isBareDocument(tree: TreeMap): boolean {
  return tree.size === 1 && tree.has('document');
}

export interface YamlRenderOptions {
  /**
   * spring.cloud.config.server.strip-document-from-yaml (Spring's default: true): a tree whose only key is
   * `document` (a repository file holding a list or a scalar) is dumped as that value alone.
   */
  readonly stripDocument?: boolean;
}

/** Block-style YAML like SnakeYAML's `dumpAsMap` of the nested map. */
export function renderYaml(flat: FlatProperties, options: YamlRenderOptions = {}): string {
  return yamlOf(buildPropertyTree(flat), options.stripDocument ?? true);
}

function yamlOf(tree: TreeMap, stripDocument: boolean): string {
  if (stripDocument && isBareDocument(tree)) {
    const document = tree.get('document') as TreeNode;
    if (Array.isArray(document)) return document.length === 0 ? '[]\n' : emitList(document, 0);
    if (document instanceof Map) return document.size === 0 ? '{}\n' : emitMap(document, 0);
    return `${yamlScalar(document, 2)}\n`;
  }
  return tree.size === 0 ? '{}\n' : emitMap(tree, 0);
}

/**
 * The nested structure as JSON values, each object a Map that keeps the properties' order (write it with
 * writeJson: it may hold Maps, bigints and JavaDoubles).
 */
export function renderJson(flat: FlatProperties): TreeMap {
  return buildPropertyTree(flat);
}

function emitMap(map: TreeMap, indent: number): string {
  let out = '';
  const pad = ' '.repeat(indent);
  for (const [key, value] of map) {
    const keyText = simpleYamlKey(key);
    if (keyText !== undefined) {
      out += `${pad}${keyText}:${emitValue(value, indent, indent + 2, indent + keyText.length + 2)}`;
      continue;
    }
    // The explicit form: `? key` written like a value, then `:` at the key's column, and the value after it; a
    // nested block starts on the `:` line, a list indented (SnakeYAML's Emitter, ExpectBlockMappingValue).
    out += `${pad}? ${yamlScalar(key, indent + 2, indent + 2)}\n${pad}:`;
    if (value instanceof Map && value.size > 0) out += ` ${emitMap(value, indent + 2).slice(indent + 2)}`;
    else if (Array.isArray(value) && value.length > 0)
      out += ` ${emitList(value, indent + 2).slice(indent + 2)}`;
    else out += emitValue(value, indent, indent + 2, indent + 2);
  }
  return out;
}

/**
 * What follows `key:` or `-`: a nested block on the next lines, or ` scalar\n`; `column` is where the
 * scalar's text would start (long scalars fold past column 80, as SnakeYAML's do).
 */
function emitValue(value: TreeNode, listIndent: number, mapIndent: number, column: number): string {
  if (value instanceof Map) return value.size === 0 ? ' {}\n' : `\n${emitMap(value, mapIndent)}`;
  if (Array.isArray(value)) return value.length === 0 ? ' []\n' : `\n${emitList(value, listIndent)}`;
  return ` ${yamlScalar(value, mapIndent, column)}\n`;
}

/** SnakeYAML's default indicator indent 0: `- ` at the parent key's column. */
function emitList(list: TreeList, indent: number): string {
  let out = '';
  const pad = ' '.repeat(indent);
  for (const item of list) {
    if ((item instanceof Map && item.size > 0) || (Array.isArray(item) && item.length > 0)) {
      // The first line of the nested block shares the dash's line.
      const block = item instanceof Map ? emitMap(item, indent + 2) : emitList(item as TreeList, indent + 2);
      out += `${pad}- ${block.slice(indent + 2)}`;
    } else {
      out += `${pad}-${emitValue(item, indent, indent + 2, indent + 2)}`;
    }
  }
  return out;
}

/** The tree with each string value's placeholders resolved (`path` names it in errors); keys as they are. */
function resolveValues(node: TreeNode, placeholders: RenderingPlaceholders, path: string): TreeNode {
  if (node instanceof Map) {
    const map: TreeMap = new Map();
    for (const [key, value] of node)
      map.set(key, resolveValues(value, placeholders, path === '' ? key : `${path}.${key}`));
    return map;
  }
  if (Array.isArray(node))
    return node.map((item, index) => resolveValues(item, placeholders, `${path}[${index}]`));
  return typeof node === 'string' ? placeholders.inValue(node, path) : node;
}
