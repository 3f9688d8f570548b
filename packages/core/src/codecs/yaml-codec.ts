/**
 * YAML with SnakeYAML's typing, as Spring Boot loads it (`OriginTrackedYamlLoader`):
 * YAML 1.1 scalars with SnakeYAML's exact BOOL/INT/FLOAT patterns (no `y`/`n` booleans),
 * timestamps left as strings, merge keys, unique keys. Unlike SnakeYAML under Boot, alias
 * expansion is bounded, so an alias bomb is rejected instead of exhausting memory.
 */
import type { Document, LineCounter, ScalarTag, YAMLError } from 'yaml';
import { ConfigParseError, type ConfigDocument, toConfigDocuments } from './config-document.js';
import { type FlatProperties, flattenProperties } from './flatten.js';
import { JavaDouble } from './property-value.js';
import { yamlLibrary } from './yaml-library.js';
import { yamlOrigins } from './yaml-origins.js';
import { messageOf } from '../errors/message-of.js';

const YAML_TAG = 'tag:yaml.org,2002:';

// org.yaml.snakeyaml.resolver.Resolver (SnakeYAML 1.x/2.x).
const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const BOOL_TRUE = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const INT =
  /^(?:[-+]?0b_*[0-1]+[0-1_]*|[-+]?0_*[0-7]+[0-7_]*|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x_*[0-9a-fA-F]+[0-9a-fA-F_]*|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT =
  /^(?:[-+]?(?:\.[0-9]+|[0-9_]+(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/**
 * Bound on alias expansion (`yaml`'s count × nested-alias measure). High enough for hundreds of
 * `<<: *base` merges of one anchor, low enough to stop an exponential "billion laughs" early.
 */
export const YAML_MAX_ALIAS_COUNT = 10_000;

const snakeBool: ScalarTag = {
  tag: `${YAML_TAG}bool`,
  default: true,
  identify: (value) => typeof value === 'boolean',
  test: BOOL,
  resolve: (source) => BOOL_TRUE.test(source),
};

const snakeInt: ScalarTag = {
  tag: `${YAML_TAG}int`,
  default: true,
  identify: (value) => typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value)),
  test: INT,
  resolve: (source) => parseSnakeInt(source),
};

const snakeFloat: ScalarTag = {
  tag: `${YAML_TAG}float`,
  default: true,
  identify: (value) => value instanceof JavaDouble,
  test: FLOAT,
  resolve: (source) => parseSnakeFloat(source),
};

// Explicit `!!timestamp` stays a string too: Boot removes timestamp resolution.
const timestampAsString: ScalarTag = {
  tag: `${YAML_TAG}timestamp`,
  identify: () => false,
  resolve: (source) => source,
};

const REPLACED_TAGS = new Set(['bool', 'int', 'float', 'timestamp'].map((name) => YAML_TAG + name));

/**
 * Flow collections (`[`, `{`) nested deeper than this are rejected before parsing: the parser recurses per
 * level and a few thousand levels overflow its stack, which is slow to unwind (~250 ms for a 3 KB file).
 */
export const YAML_MAX_FLOW_DEPTH = 256;

/**
 * Aliases may make a document yield more properties than its text has lines, but not this many times more
 * (plus a fixed allowance): hundreds of `<<: *base` merges stay far below it, while a 150-byte file of nested
 * aliases that expanded to 59,000 properties (within the alias count) is rejected.
 */
export const YAML_MAX_PROPERTIES_PER_LINE = 100;
const YAML_PROPERTIES_ALLOWANCE = 1000;

/** Parses every `---` document of a YAML file into flattened, SnakeYAML-typed properties. */
export function parseYaml(text: string, file: string): ConfigDocument[] {
  checkFlowDepth(text, file);
  const yaml = yamlLibrary();
  const lineCounter = new yaml.LineCounter();
  const documents = yaml.parseAllDocuments(text, {
    version: '1.1',
    // Checked below in linear time; the library's own check is quadratic in the map size.
    uniqueKeys: false,
    lineCounter,
    merge: true,
    prettyErrors: true,
    customTags: (tags) => [
      ...tags.filter((tag) => typeof tag === 'string' || !REPLACED_TAGS.has(tag.tag)),
      snakeBool,
      snakeInt,
      snakeFloat,
      timestampAsString,
    ],
  });
  const list = Array.isArray(documents) ? documents : [documents];
  const flattened: FlatProperties[] = [];
  const origins: Record<string, string>[] = [];
  list.forEach((document, position) => {
    const documentNumber = position + 1;
    const [error] = document.errors;
    if (error !== undefined) throw toParseError(file, documentNumber, error);
    checkUniqueKeys(file, documentNumber, document, lineCounter);
    const unknownTag = document.warnings.find((warning) => warning.code === 'TAG_RESOLVE_FAILED');
    if (unknownTag !== undefined) throw toParseError(file, documentNumber, unknownTag);
    let value: unknown;
    try {
      value = document.toJS({ mapAsMap: true, maxAliasCount: YAML_MAX_ALIAS_COUNT });
    } catch (cause) {
      const reason = messageOf(cause);
      throw new ConfigParseError(file, reason, { document: documentNumber });
    }
    // SnakeYAML yields null for an empty document and Boot skips it.
    if (value === null || value === undefined) return;
    // Spring's YamlProcessor: "A document can be a text literal".
    const root = value instanceof Map ? value : new Map([['document', value]]);
    const properties = flattenProperties(root);
    const count = properties.size;
    const allowed = YAML_PROPERTIES_ALLOWANCE + YAML_MAX_PROPERTIES_PER_LINE * lineCounter.lineStarts.length;
    if (count > allowed) {
      throw new ConfigParseError(
        file,
        `aliases expand to ${count} properties from ${lineCounter.lineStarts.length} lines (at most ${allowed})`,
        { document: documentNumber },
      );
    }
    flattened.push(properties);
    origins.push(yamlOrigins(document, lineCounter));
  });
  return toConfigDocuments(file, flattened, origins);
}

/** A linear scan for flow nesting; brackets inside quoted scalars count too, which only makes it stricter. */
function checkFlowDepth(text: string, file: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > YAML_MAX_FLOW_DEPTH) {
        throw new ConfigParseError(
          file,
          `flow collections nested more than ${YAML_MAX_FLOW_DEPTH} levels deep`,
        );
      }
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
}

function toParseError(file: string, documentNumber: number, error: YAMLError): ConfigParseError {
  const position = error.linePos?.[0];
  let reason = error.message.split('\n')[0] ?? error.message;
  // The parser recurses per nesting level; say what the input did rather than what the stack did.
  reason = reason.replace(/^Maximum call stack size exceeded/, 'nested too deeply');
  reason = reason.replace(/ at line \d+, column \d+:?$/, '');
  if (error.code === 'TAG_RESOLVE_FAILED') {
    // SnakeYAML's SafeConstructor refuses unknown tags such as !!js/function the same way.
    reason = reason.replace('Unresolved tag', 'Unsupported tag');
  }
  return new ConfigParseError(file, reason, {
    document: documentNumber,
    ...(position === undefined ? {} : { line: position.line, column: position.col }),
  });
}

/**
 * Spring Boot sets `allowDuplicateKeys(false)`: a key repeated in one mapping is an error.
 * Keys compare by their resolved value and type (`1` and `0x1` collide, as in SnakeYAML);
 * explicit keys may still override keys brought in by a `<<` merge.
 */
function checkUniqueKeys(file: string, documentNumber: number, document: Document, lines: LineCounter): void {
  const { isMap, isScalar, visit } = yamlLibrary();
  visit(document, {
    Map(_key, map) {
      if (!isMap(map)) return;
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = pair.key;
        if (!isScalar(key)) continue;
        if (key.value === '<<' && key.type === 'PLAIN') continue;
        const identity = `${typeof key.value}:${String(key.value)}`;
        if (!seen.has(identity)) {
          seen.add(identity);
          continue;
        }
        const position = key.range ? lines.linePos(key.range[0]) : undefined;
        throw new ConfigParseError(
          file,
          `Map keys must be unique (${JSON.stringify(String(key.source ?? key.value))})`,
          {
            document: documentNumber,
            ...(position === undefined ? {} : { line: position.line, column: position.col }),
          },
        );
      }
    },
  });
}

/** Underscores removed (SnakeYAML ignores them) and the sign split off the digits. */
function splitSign(source: string): { sign: 1 | -1; text: string } {
  const text = source.replaceAll('_', '');
  if (text.startsWith('-')) return { sign: -1, text: text.slice(1) };
  if (text.startsWith('+')) return { sign: 1, text: text.slice(1) };
  return { sign: 1, text };
}

/**
 * SnakeYAML's ConstructYamlInt: underscores ignored, 0b/0x/0-octal and base-60 forms. Java makes an Integer,
 * Long or BigInteger, whichever holds it: a number while JavaScript holds it exactly, a bigint beyond.
 */
function parseSnakeInt(source: string): number | bigint {
  const { sign, text } = splitSign(source);
  let magnitude: bigint;
  if (text === '0') return 0;
  if (text.startsWith('0b')) magnitude = BigInt(`0b${text.slice(2)}`);
  else if (text.startsWith('0x')) magnitude = BigInt(`0x${text.slice(2)}`);
  else if (text.startsWith('0')) magnitude = BigInt(`0o${text.slice(1)}`);
  else if (text.includes(':')) {
    magnitude = text.split(':').reduce((total, part) => total * 60n + BigInt(part), 0n);
  } else magnitude = BigInt(text);
  const value = BigInt(sign) * magnitude;
  return Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

/** SnakeYAML's ConstructYamlFloat: a Java Double (`1e3` is the Double 1000.0, not the Integer 1000). */
function parseSnakeFloat(source: string): JavaDouble {
  const { sign, text } = splitSign(source);
  const lower = text.toLowerCase();
  if (lower === '.inf') return new JavaDouble(sign * Number.POSITIVE_INFINITY);
  if (lower === '.nan') return new JavaDouble(Number.NaN);
  if (text.includes(':')) {
    const parts = text.split(':').map(Number);
    return new JavaDouble(sign * parts.reduce((total, part) => total * 60 + part, 0));
  }
  return new JavaDouble(sign * Number(text));
}
