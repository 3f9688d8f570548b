/**
 * JSON for property values as Spring's Jackson writes them: JSON.stringify cannot write a bigint at all, nor a
 * JavaDouble as Java prints it, and JSON.parse rounds integers beyond 2^53. So the environment JSON, the
 * rendered `.json` and the client's backups go through writeJson, and the client reads through parseJson.
 */
import { JavaDouble, javaDoubleText } from './property-value.js';

/**
 * JSON text like Jackson's: a Map as an object of its entries in their order (properties keep theirs), bigint
 * as its digits, a JavaDouble as Java prints it (`1000.0`; NaN and the infinities as the strings `"NaN"`,
 * `"Infinity"`, `"-Infinity"`, Jackson's default), control characters escaped with upper-case hex. Otherwise as
 * JSON.stringify: `undefined` members left out, `indent` spaces per level (0: on one line).
 */
export function writeJson(value: unknown, indent = 0): string {
  return write(value, indent, '') ?? 'null';
}

function write(value: unknown, indent: number, padding: string): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : quote(javaDoubleText(value));
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  if (value instanceof JavaDouble) {
    const text = javaDoubleText(value.value);
    return Number.isFinite(value.value) ? text : quote(text);
  }
  // An object or list of plain values (a property source, most often) is JSON.stringify's, several times faster.
  if (indent === 0 && holdsOnlyPlainValues(value as object))
    return upperCaseHexEscapes(JSON.stringify(value));
  if (indent === 0 && value instanceof Map) {
    const plain = plainMapMembers(value as Map<unknown, unknown>);
    if (plain !== undefined) return upperCaseHexEscapes(plain);
  }
  const inner = indent > 0 ? padding + ' '.repeat(indent) : '';
  const [open, separator, close] = indent > 0 ? ['\n' + inner, ',\n' + inner, '\n' + padding] : ['', ',', ''];
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item: unknown) => write(item, indent, inner) ?? 'null');
    return `[${open}${items.join(separator)}${close}]`;
  }
  const members: string[] = [];
  const colon = indent > 0 ? ': ' : ':';
  const add = (key: string, item: unknown) => {
    const text = write(item, indent, inner);
    if (text !== undefined) members.push(`${quote(key)}${colon}${text}`);
  };
  // A Map (properties in their order) is an object whose members are its entries.
  if (value instanceof Map) for (const [key, item] of value as Map<unknown, unknown>) add(String(key), item);
  else for (const key of Object.keys(value as object)) add(key, (value as Record<string, unknown>)[key]);
  return members.length === 0 ? '{}' : `{${open}${members.join(separator)}${close}}`;
}

/** Strings, booleans, finite numbers and nulls only, which JSON.stringify writes as Jackson does (but hex case). */
function holdsOnlyPlainValues(value: object): boolean {
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return false;
  return (Array.isArray(value) ? value : Object.values(value)).every(isPlainValue);
}

/** `{…}` of a Map whose values are all plain, written member by member with JSON.stringify; else undefined. */
function plainMapMembers(map: Map<unknown, unknown>): string | undefined {
  let out = '';
  for (const [key, item] of map) {
    if (!isPlainValue(item)) return undefined;
    out += `${out === '' ? '' : ','}${JSON.stringify(String(key))}:${JSON.stringify(item)}`;
  }
  return `{${out}}`;
}

function isPlainValue(value: unknown): boolean {
  const type = typeof value;
  return (
    type === 'string' || type === 'boolean' || value === null || (type === 'number' && Number.isFinite(value))
  );
}

function quote(text: string): string {
  return upperCaseHexEscapes(JSON.stringify(text));
}

/**
 * Jackson writes `\u001B` where JSON.stringify writes `\u001b`. Only escapes preceded by an even number of
 * backslashes are escapes (`\\u001b` is a backslash and text).
 */
function upperCaseHexEscapes(json: string): string {
  if (!json.includes('\\u00')) return json;
  return json.replace(/(?<!\\)((?:\\\\)*)\\u00([0-9a-f]{2})/g, (_, backslashes: string, hex: string) => {
    return `${backslashes}\\u00${hex.toUpperCase()}`;
  });
}

/** Nesting deeper than this is refused (the parser recurses per level; JSON.parse has no such limit to mirror). */
const MAX_DEPTH = 1000;

/**
 * JSON.parse, except that each number is made by `number` from its literal text (`1000.0`, `1e3`,
 * `100000000000000000000`), so no digit and no notation is lost on the way. `inOrder`: every object a Map of its
 * members in the order the text gives them (an object would move members named like array indices, `2`, `10`,
 * first).
 */
export function parseJson(text: string, number: (literal: string) => unknown, inOrder = false): unknown {
  const parser = new JsonParser(text, number, inOrder);
  const value = parser.value(0);
  parser.end();
  return value;
}

/**
 * JSON.parse, except that an integer beyond 2^53 comes back as a bigint (as Jackson reads a BigInteger)
 * instead of a rounded number. Text without a run of 16 digits cannot hold one and goes to JSON.parse.
 */
export function parseJsonExactIntegers(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  return parseJson(text, exactNumber);
}

/** parseJsonExactIntegers with every object a Map of its members in order (parseJson's `inOrder`). */
export function parseJsonInOrder(text: string): unknown {
  return parseJson(text, exactNumber, true);
}

function exactNumber(literal: string): unknown {
  if (/[.eE]/.test(literal)) return Number(literal);
  const exact = Number(literal);
  return Number.isSafeInteger(exact) ? exact : BigInt(literal);
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

class JsonParser {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly number: (literal: string) => unknown,
    /** Objects as Maps, members in order. */
    private readonly maps: boolean,
  ) {}

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail(`nested more than ${MAX_DEPTH} levels deep`);
    this.skipWhitespace();
    const char = this.text[this.at];
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') return this.string();
    if (this.text.startsWith('true', this.at)) return this.literal('true', true);
    if (this.text.startsWith('false', this.at)) return this.literal('false', false);
    if (this.text.startsWith('null', this.at)) return this.literal('null', null);
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.fail('unexpected character');
    this.at += match[0].length;
    return this.number(match[0]);
  }

  end(): void {
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail('unexpected text after the value');
  }

  private object(depth: number): Record<string, unknown> | Map<string, unknown> {
    const out: Record<string, unknown> = {};
    const map = this.maps ? new Map<string, unknown>() : undefined;
    this.at++;
    this.skipWhitespace();
    if (this.text[this.at] === '}') {
      this.at++;
      return map ?? out;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.at] !== '"') this.fail('expected a member name');
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.at] !== ':') this.fail("expected ':'");
      this.at++;
      const value = this.value(depth + 1);
      // A repeated member keeps its first place and takes the last value, as in an object.
      if (map) map.set(key, value);
      // defineProperty: a member named __proto__ is an own property, as JSON.parse makes it.
      else Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      const next = this.text[this.at++];
      if (next === '}') return map ?? out;
      if (next !== ',') this.fail("expected ',' or '}'");
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.at++;
    this.skipWhitespace();
    if (this.text[this.at] === ']') {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipWhitespace();
      const next = this.text[this.at++];
      if (next === ']') return out;
      if (next !== ',') this.fail("expected ',' or ']'");
    }
  }

  /** The literal's extent is found here; JSON.parse decodes it (escapes and all) when it has a backslash. */
  private string(): string {
    const start = this.at;
    let end = start + 1;
    for (;;) {
      const quote = this.text.indexOf('"', end);
      if (quote === -1) this.fail('unterminated string');
      let backslashes = 0;
      while (this.text[quote - 1 - backslashes] === '\\') backslashes++;
      end = quote + 1;
      if (backslashes % 2 === 0) break;
    }
    this.at = end;
    const literal = this.text.slice(start, end);
    // A control character in a literal is an error JSON.parse reports.
    // eslint-disable-next-line no-control-regex
    if (!literal.includes('\\') && !/[\u0000-\u001f]/.test(literal)) return literal.slice(1, -1);
    return JSON.parse(literal) as string;
  }

  private literal<T>(word: string, value: T): T {
    this.at += word.length;
    return value;
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private fail(reason: string): never {
    throw new SyntaxError(`JSON at position ${this.at}: ${reason}`);
  }
}
