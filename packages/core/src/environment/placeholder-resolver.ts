/**
 * The placeholder resolver behind placeholders.ts: Spring's PropertyPlaceholderHelper syntax (`${key}`,
 * `${key:default}`, nested `${${x}}`, `\${` for a literal `${`), each key's value resolved once and reused,
 * cycles found and handled as the caller asks, every step counted against a PlaceholderBudget.
 */
import type { PropertyValue } from '../codecs/property-value.js';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import {
  type PlaceholderBudget,
  PlaceholderBudgetExceeded,
  PlaceholderLimitError,
} from './placeholder-limits.js';

export const PLACEHOLDER_PREFIX = '${';
const PREFIX = PLACEHOLDER_PREFIX;
const SUFFIX = '}';
const SEPARATOR = ':';
const ESCAPE = '\\';

/** Where a placeholder's key is looked up: a value, or undefined when no source has the key. */
export type PlaceholderLookup = (key: string) => PropertyValue | undefined;

/**
 * What a cycle does: the server keeps the outermost placeholder literal (`ping: p-${pong}`, part of its wire
 * format), the client the innermost (`ping: p-q-${ping}`, what its reads have always returned); settings
 * fail, as Spring Boot's binder fails on a circular placeholder reference.
 */
export type CircularPlaceholders = 'keep-outermost' | 'keep-innermost' | 'fail';

/**
 * How a placeholder's key is looked up: as written (`${ key }` looks up ` key `, as spring-core's resolver does
 * for `.properties` and plain text), or with surrounding whitespace stripped (Spring Cloud Config 4.3.4/5.0.4+
 * resolving the values of a rendered `.yml`/`.json`, spring-cloud-config#3235).
 */
export type PlaceholderKeys = 'as-written' | 'stripped';

/**
 * Thrown inside a resolution that refers back to itself (an exception, because the cycle is found many frames
 * below the placeholder it concerns). With 'keep-outermost' it is caught here and the placeholder stays
 * literal; with 'fail' it reaches the caller (the settings resolver), which reports it as a bad setting, so
 * its `internal` code never reaches a user.
 */
export class PlaceholderCycleError extends ConfbusError<'CONFBUS_PLACEHOLDER_CYCLE'> {
  override readonly name = 'PlaceholderCycleError';
  constructor(readonly key: string) {
    super(coreErrors.CONFBUS_PLACEHOLDER_CYCLE, `placeholder '${key}' refers back to itself`);
  }
}

/** A key's resolved value and the keys its resolution looked up: reusable wherever none of those is in progress. */
interface Memo {
  readonly value: string;
  readonly touched: ReadonlySet<string>;
}

/** Most keys remembered per memo; a resolution that looks up more is not memoised. */
const MAX_TOUCHED = 512;

/**
 * Each key's value is resolved once and reused (a bomb's `${p}${p}` then costs one resolution per level, not
 * 2^level), except where reuse could hide a cycle: a memo is used only when no key it looked up is being
 * resolved right now, which is exactly when resolving again would give the same text.
 */
export class PlaceholderResolver {
  private readonly memo = new Map<string, Memo>();
  /** Keys looked up by each resolution in progress, innermost last; null once too many to track. */
  private readonly touched: Array<Set<string> | null> = [];

  constructor(
    private readonly lookup: PlaceholderLookup,
    readonly budget: PlaceholderBudget,
    private readonly circular: CircularPlaceholders,
    private readonly keys: PlaceholderKeys = 'as-written',
  ) {}

  /** A value, the value of `key` when a cycle may lead back to it through that key. */
  resolveTopLevel(key: string | undefined, value: string): string {
    return this.resolveText(value, new Set(key === undefined ? [] : [key]), 0, true);
  }

  /**
   * Each placeholder of a whole text on its own, as a value: its own lookup count, its own length limit (the
   * text may be far longer than one value), a limit error naming its key and the file holding that key.
   */
  resolveDocument(text: string, sourceOf: (key: string) => string): string {
    let out = '';
    let i = 0;
    while (i < text.length) {
      const start = text.indexOf(PREFIX, i);
      const end = start === -1 ? -1 : findPlaceholderEnd(text, start + PREFIX.length);
      if (end === -1) {
        out += text.slice(i);
        break;
      }
      out += text.slice(i, start);
      const content = text.slice(start + PREFIX.length, end);
      out += this.resolveAlone(content, sourceOf) ?? text.slice(start, end + SUFFIX.length);
      i = end + SUFFIX.length;
    }
    return out;
  }

  private resolveAlone(content: string, sourceOf: (key: string) => string): string | undefined {
    this.budget.nextValue();
    try {
      const replacement = this.resolvePlaceholder(content, new Set(), 0);
      if (replacement !== undefined) this.budget.substitute(replacement, 0);
      return replacement;
    } catch (error) {
      if (error instanceof PlaceholderCycleError) return undefined;
      if (error instanceof PlaceholderBudgetExceeded) {
        const separator = findTopLevel(content, SEPARATOR);
        const key = separator === -1 ? content : content.slice(0, separator);
        const shown = key.length > 80 ? `${key.slice(0, 80)}…` : key;
        throw new PlaceholderLimitError(shown, sourceOf(key), error.message);
      }
      throw error;
    }
  }

  private resolveText(text: string, visiting: ReadonlySet<string>, depth: number, topLevel = false): string {
    if (!text.includes(PREFIX)) return text;
    this.budget.enter(depth);
    let out = '';
    let i = 0;
    while (i < text.length) {
      const start = text.indexOf(PREFIX, i);
      if (start === -1) {
        out += text.slice(i);
        break;
      }
      if (start > i && text[start - 1] === ESCAPE) {
        // `\${` is a literal `${`; the text after it is kept as written.
        out += text.slice(i, start - 1) + PREFIX;
        i = start + PREFIX.length;
        continue;
      }
      const end = findPlaceholderEnd(text, start + PREFIX.length);
      if (end === -1) {
        out += text.slice(i);
        break;
      }
      out += text.slice(i, start);
      const content = text.slice(start + PREFIX.length, end);
      let replacement: string | undefined;
      try {
        replacement = this.resolvePlaceholder(content, visiting, depth);
      } catch (error) {
        const keepLiteral = topLevel && this.circular === 'keep-outermost';
        if (!(keepLiteral && error instanceof PlaceholderCycleError)) throw error;
      }
      if (replacement !== undefined) this.budget.substitute(replacement, out.length);
      out += replacement ?? text.slice(start, end + SUFFIX.length);
      i = end + SUFFIX.length;
    }
    return out;
  }

  /** The replacement, or undefined to keep the placeholder literally. */
  private resolvePlaceholder(
    content: string,
    visiting: ReadonlySet<string>,
    depth: number,
  ): string | undefined {
    const separator = findTopLevel(content, SEPARATOR);
    const rawKey = separator === -1 ? content : content.slice(0, separator);
    const written = this.resolveText(rawKey, visiting, depth + 1);
    const key = this.keys === 'stripped' ? javaStrip(written) : written;
    const circular = visiting.has(key);
    if (circular && this.circular !== 'keep-innermost') throw new PlaceholderCycleError(key);
    // keep-innermost: the key is not looked up again (its default, if any, still applies); the touch makes
    // a memo built here unusable while `key` is being resolved.
    const value = circular ? undefined : this.lookup(key);
    if (!circular) this.budget.lookup();
    this.touch(key);
    if (value !== undefined) {
      if (typeof value !== 'string') return String(value);
      return this.resolveValue(key, value, visiting, depth);
    }
    if (separator !== -1) {
      return this.resolveText(content.slice(separator + SEPARATOR.length), visiting, depth + 1);
    }
    return undefined;
  }

  private resolveValue(key: string, value: string, visiting: ReadonlySet<string>, depth: number): string {
    const memo = this.memo.get(key);
    if (memo !== undefined && ![...visiting].some((k) => memo.touched.has(k))) {
      for (const k of memo.touched) this.touch(k);
      return memo.value;
    }
    this.touched.push(new Set());
    let resolved: string;
    let touched: Set<string> | null | undefined;
    try {
      resolved = this.resolveText(value, new Set(visiting).add(key), depth + 1);
    } finally {
      touched = this.touched.pop();
    }
    if (touched) {
      this.memo.set(key, { value: resolved, touched });
      for (const k of touched) this.touch(k);
    } else if (this.touched.length > 0) {
      this.touched[this.touched.length - 1] = null;
    }
    return resolved;
  }

  private touch(key: string): void {
    const current = this.touched[this.touched.length - 1];
    if (!current) return;
    current.add(key);
    if (current.size > MAX_TOUCHED) this.touched[this.touched.length - 1] = null;
  }
}

/**
 * Java's `String.strip()`: leading and trailing `Character.isWhitespace` characters, which (unlike
 * JavaScript's `trim()`) leave the no-break spaces U+00A0, U+2007 and U+202F and U+FEFF in place.
 */
// eslint-disable-next-line no-control-regex
const JAVA_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]/;

export function javaStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && JAVA_WHITESPACE.test(text[start]!)) start++;
  while (end > start && JAVA_WHITESPACE.test(text[end - 1]!)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Index of the `}` closing a placeholder whose content starts at `from`, counting nested braces. */
function findPlaceholderEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text.startsWith(PREFIX, i)) {
      depth++;
      i += PREFIX.length - 1;
    } else if (text[i] === '{') {
      depth++;
    } else if (text[i] === SUFFIX) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function findTopLevel(text: string, needle: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith(PREFIX, i)) {
      depth++;
      i += PREFIX.length - 1;
    } else if (text[i] === SUFFIX) {
      depth--;
    } else if (depth === 0 && text.startsWith(needle, i)) {
      return i;
    }
  }
  return -1;
}
