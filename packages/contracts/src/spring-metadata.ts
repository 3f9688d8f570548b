/**
 * Spring Boot's configuration metadata (`META-INF/spring-configuration-metadata.json`, written by the
 * configuration processor for every `@ConfigurationProperties` class) turned into a contract: each property's
 * Java type becomes a JSON Schema type at its nested place, hints with a closed list of values become the values
 * allowed. The metadata says nothing about required keys or ranges (Bean Validation annotations are not in it),
 * so an imported contract checks the types of what is set, and with `rejectUnknownKeys` refuses keys its groups
 * do not declare (Spring ignores them silently by default: a misspelt key there is a setting that never applies).
 */
import { ConfbusError } from '@confbus/core';
import type { JsonSchema } from './contract.js';
import { contractErrors } from './errors.js';
import { schemaOfJavaType } from './java-types.js';

export interface SpringMetadata {
  readonly groups?: ReadonlyArray<{
    readonly name: string;
    readonly type?: string;
    readonly sourceType?: string;
  }>;
  readonly properties: ReadonlyArray<SpringProperty>;
  readonly hints?: ReadonlyArray<SpringHint>;
}

export interface SpringProperty {
  readonly name: string;
  readonly type?: string;
  readonly description?: string;
  readonly defaultValue?: unknown;
  readonly deprecated?: boolean;
  readonly deprecation?: { readonly level?: string };
}

export interface SpringHint {
  readonly name: string;
  readonly values?: ReadonlyArray<{ readonly value: unknown }>;
  readonly providers?: ReadonlyArray<{ readonly name: string }>;
}

export interface ImportOptions {
  /** Refuse keys under a group that the group does not declare (`additionalProperties: false`). */
  readonly rejectUnknownKeys?: boolean;
  /** Shown in errors: the file or jar read. */
  readonly source: string;
}

type Node = { [keyword: string]: unknown; properties?: Record<string, Node> };

/** Parses metadata JSON (one file, or several merged: a jar may hold more than one). */
export function parseSpringMetadata(text: string, source: string): SpringMetadata {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw metadataError(`${source}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const properties = (parsed as { properties?: unknown } | null)?.properties;
  if (!Array.isArray(properties))
    throw metadataError(`${source}: no "properties" list: not Spring configuration metadata`);
  return parsed as SpringMetadata;
}

export function mergeSpringMetadata(all: readonly SpringMetadata[]): SpringMetadata {
  return {
    groups: all.flatMap((m) => m.groups ?? []),
    properties: all.flatMap((m) => m.properties),
    hints: all.flatMap((m) => m.hints ?? []),
  };
}

/** The contract (a JSON Schema 2020-12 for the nested configuration) the metadata describes. */
export function contractOfSpringMetadata(metadata: SpringMetadata, options: ImportOptions): JsonSchema {
  const root: Node = { type: 'object' };
  const hints = new Map((metadata.hints ?? []).map((hint) => [hint.name, hint]));
  if (options.rejectUnknownKeys) for (const group of metadata.groups ?? []) closed(nodeAt(root, group.name));
  for (const property of metadata.properties) {
    if (typeof property.name !== 'string' || property.name === '') continue;
    const node = nodeAt(root, property.name);
    const { properties: children, ...typed } = {
      ...schemaOfJavaType(property.type ?? ''),
      ...node,
      ...valuesOf(hints.get(property.name) ?? hints.get(`${property.name}.values`)),
    };
    Object.assign(node, typed, children === undefined ? {} : { properties: children });
    if (property.description) node.description = property.description;
    if (property.defaultValue !== undefined) node.default = property.defaultValue;
    if (property.deprecated || property.deprecation) node.deprecated = true;
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...root };
}

/** The node of a dotted name, made on the way (`a.b.c`: root.properties.a.properties.b.properties.c). */
function nodeAt(root: Node, name: string): Node {
  let node = root;
  for (const segment of name.split('.')) {
    if (segment === '' || segment === '__proto__') continue;
    node.properties ??= {};
    let child = Object.hasOwn(node.properties, segment) ? node.properties[segment] : undefined;
    if (child === undefined) {
      child = {};
      node.properties[segment] = child;
    }
    node = child;
  }
  return node;
}

function closed(node: Node): void {
  node.type = 'object';
  node.additionalProperties = false;
}

/**
 * A hint's values as the values allowed, when the list is closed (no provider such as `any` allows others).
 * Spring binds enums leniently (`ON`, `on`, `O-N` are the same constant), so string values match that way.
 */
function valuesOf(hint: SpringHint | undefined): JsonSchema {
  const values = hint?.values?.map((entry) => entry.value) ?? [];
  if (values.length === 0 || (hint?.providers?.length ?? 0) > 0) return {};
  if (!values.every((value) => typeof value === 'string')) return { enum: values };
  return { pattern: `^(?:${(values as string[]).map(lenientPattern).join('|')})$` };
}

/** A value as Spring's lenient enum binding matches it: any case, `-` and `_` ignored. */
function lenientPattern(value: string): string {
  let pattern = '';
  for (const char of value.replace(/[-_]/g, '')) {
    const lower = char.toLowerCase();
    const upper = char.toUpperCase();
    pattern += lower === upper ? char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&') : `[${lower}${upper}]`;
    pattern += '[-_]*';
  }
  return `[-_]*${pattern}`;
}

function metadataError(message: string): ConfbusError {
  return new ConfbusError(contractErrors.CONFBUS_CONTRACT_METADATA, message);
}
