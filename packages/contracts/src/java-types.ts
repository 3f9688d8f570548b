/**
 * The JSON Schema of a Java type as Spring's binder converts configuration text to it. Types not listed here
 * (the application's own classes, `java.lang.Object`, enums without hints) are left permissive: `{}`.
 */
import { EXPECTED, type JsonSchema } from './contract.js';

/**
 * Spring's DurationStyle: SIMPLE (`30s`, `500ms`, `-1`, a bare number in the field's unit) or ISO-8601
 * (`PT30S`, `P1DT2H`), units in any case.
 */
const DURATION_PATTERN =
  '^(?:[+-]?\\d+(?:[nN][sS]|[uU][sS]|[mM][sS]|[sS]|[mM]|[hH]|[dD])?|[+-]?[pP](?:[-+]?\\d+[dD])?(?:[tT](?:[-+]?\\d+[hH])?(?:[-+]?\\d+[mM])?(?:[-+]?\\d+(?:[.,]\\d{0,9})?[sS])?)?)$';
/** Spring's DataSize: a number and an optional unit B, KB, MB, GB, TB (any case). */
const DATA_SIZE_PATTERN = '^[+-]?\\d+(?:[bB]|[kKmMgGtT][bB])?$';
/** Spring's PeriodStyle: SIMPLE (`3d`, `2w1d`) or ISO-8601 (`P1Y2M`). */
const PERIOD_PATTERN =
  '^(?:[+-]?\\d+[yYmMwWdD]?(?:[+-]?\\d+[mMwWdD])*|[+-]?[pP](?:[-+]?\\d+[yY])?(?:[-+]?\\d+[mM])?(?:[-+]?\\d+[wW])?(?:[-+]?\\d+[dD])?)$';

const INTEGER_TYPES = new Set([
  'int',
  'long',
  'short',
  'byte',
  'Integer',
  'Long',
  'Short',
  'Byte',
  'BigInteger',
]);
const NUMBER_TYPES = new Set(['double', 'float', 'Double', 'Float', 'BigDecimal', 'Number']);
const TEXT_TYPES = new Set([
  'String',
  'char',
  'Character',
  'CharSequence',
  'Charset',
  'Locale',
  'Class',
  'Resource',
  'URI',
  'URL',
  'InetAddress',
  'File',
  'Path',
  'Pattern',
  'MimeType',
  'MediaType',
  'ZoneId',
  'TimeZone',
]);
const COLLECTION_TYPES = new Set([
  'List',
  'Set',
  'Collection',
  'SortedSet',
  'LinkedHashSet',
  'ArrayList',
  'HashSet',
  'Iterable',
]);
const MAP_TYPES = new Set(['Map', 'HashMap', 'LinkedHashMap', 'TreeMap', 'SortedMap', 'Properties']);

export function schemaOfJavaType(type: string): JsonSchema {
  const clean = type.trim().replace(/\s+/g, '');
  if (clean.endsWith('[]')) return listOf(schemaOfJavaType(clean.slice(0, -2)));
  const open = clean.indexOf('<');
  const base = simpleName(open < 0 ? clean : clean.slice(0, open));
  const args = open < 0 ? [] : typeArguments(clean.slice(open + 1, -1));
  if (INTEGER_TYPES.has(base)) return { type: 'integer' };
  if (NUMBER_TYPES.has(base)) return { type: 'number' };
  if (base === 'boolean' || base === 'Boolean') return { type: 'boolean' };
  if (TEXT_TYPES.has(base)) return { type: 'string' };
  if (base === 'Duration') return textOrInteger(DURATION_PATTERN, 'a duration such as 30s, 500ms or PT1M');
  if (base === 'DataSize') return textOrInteger(DATA_SIZE_PATTERN, 'a data size such as 512KB or 10MB');
  if (base === 'Period') return textOrInteger(PERIOD_PATTERN, 'a period such as 3d, 2w or P1M');
  if (COLLECTION_TYPES.has(base)) return listOf(args[0] === undefined ? {} : schemaOfJavaType(args[0]));
  if (MAP_TYPES.has(base)) {
    const value =
      base === 'Properties' ? { type: 'string' } : args[1] === undefined ? {} : schemaOfJavaType(args[1]);
    return Object.keys(value).length === 0
      ? { type: 'object' }
      : { type: 'object', additionalProperties: value };
  }
  return {};
}

/** A bare number (in the field's unit) or text in Spring's format; `x-expected` words the violation's message. */
function textOrInteger(pattern: string, expected: string): JsonSchema {
  return { anyOf: [{ type: 'integer' }, { type: 'string', pattern }], [EXPECTED]: expected };
}

/**
 * A list binds from indexed keys (`hosts[0]`, a YAML sequence) or from one comma-separated value (`a,b`), which
 * the check sees as a string: both are allowed, and only the indexed form has its items checked.
 */
function listOf(items: JsonSchema): JsonSchema {
  const array = Object.keys(items).length === 0 ? { type: 'array' } : { type: 'array', items };
  return { anyOf: [array, { type: 'string' }] };
}

function simpleName(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot < 0 ? name : name.slice(dot + 1)).replace(/^.*\$/, '');
}

/** `K,V` of `Map<K,V>` at the top level (`Map<String,List<Integer>>` → String, List<Integer>). */
function typeArguments(text: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '<') depth++;
    else if (char === '>') depth--;
    else if (char === ',' && depth === 0) {
      args.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (start < text.length) args.push(text.slice(start));
  return args;
}
