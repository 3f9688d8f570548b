/**
 * Writes scalars the way SnakeYAML's `new Yaml().dumpAsMap` does (Spring's `.yml` endpoint): the style its
 * Emitter chooses (plain, single-quoted, double-quoted, or literal `|` for multi-line text, which its
 * Representer asks for), lines folded at spaces past column 80 as its writers fold them, and text with
 * characters YAML cannot print as `!!binary` base64. The writers follow SnakeYAML's Emitter step by step,
 * so the folding points match.
 */
import { JavaDouble, javaDoubleText, type PropertyValue } from '../codecs/property-value.js';
import { FoldingWriter, isPrintable } from './yaml-writer.js';

// SnakeYAML's dumping Resolver: each pattern only applies to text starting with its characters.
const IMPLICIT: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^[yYnNtTfFoO]/, /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/],
  [
    /^[-+0-9]/,
    /^(?:[-+]?0b_*[0-1]+[0-1_]*|[-+]?0_*[0-7]+[0-7_]*|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x_*[0-9a-fA-F]+[0-9a-fA-F_]*|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
  ],
  [
    /^[-+0-9.]/,
    /^(?:[-+]?(?:\.[0-9]+|[0-9_]+(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  ],
  [/^[~nN]/, /^(?:~|null|Null|NULL| )$/],
  [
    /^[0-9]/,
    /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/,
  ],
  [/^</, /^<<$/],
  [/^=/, /^=$/],
];

function resolvesToNonString(text: string): boolean {
  // The empty string resolves to null (Resolver's EMPTY pattern).
  return text === '' || IMPLICIT.some(([first, pattern]) => first.test(text) && pattern.test(text));
}

function isAllPrintable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i) as number;
    if (code > 0xffff) i++;
    if (!isPrintable(code)) return false;
  }
  return true;
}

const LINE_FEED = 0x0a;
const SPACE = 0x20;

/** `\n`, NEL, LS and PS: the line breaks SnakeYAML's Emitter knows. */
function isLineBreakCode(code: number): boolean {
  return code === LINE_FEED || code === 0x85 || code === 0x2028 || code === 0x2029;
}

/** NUL, space, tab, CR or a line break: Emitter's "followed by whitespace" set (all in the BMP). */
function isWhiteCode(code: number): boolean {
  return code === 0 || code === SPACE || code === 0x09 || code === 0x0d || isLineBreakCode(code);
}

/** The styles SnakeYAML's Emitter.analyzeScalar allows for a text. */
interface Analysis {
  readonly multiline: boolean;
  readonly allowBlockPlain: boolean;
  readonly allowSingleQuoted: boolean;
  readonly allowBlock: boolean;
}

/**
 * Emitter.analyzeScalar, ported (code points, the same flags in the same order). Reads code units in place
 * rather than spreading the text into an array: values can be 256 KiB long (PLACEHOLDER_LIMITS), and the
 * per-character arrays made a 512 KiB rendering take tens of milliseconds of the event loop.
 */
function analyze(text: string): Analysis {
  if (text === '')
    return { multiline: false, allowBlockPlain: true, allowSingleQuoted: true, allowBlock: false };
  let blockIndicators = text.startsWith('---') || text.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  for (let index = 0; index < text.length;) {
    const code = text.codePointAt(index) as number;
    const next = index + (code > 0xffff ? 2 : 1);
    const last = next >= text.length;
    // Whitespace is all in the BMP, so the next code unit tells whether the next code point is whitespace.
    const followedByWhitespace = last || isWhiteCode(text.charCodeAt(next));
    if (index === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(text[0] as string)) blockIndicators = true;
      if ((code === 0x3f || code === 0x3a || code === 0x2d) && followedByWhitespace) blockIndicators = true;
    } else if ((code === 0x3a && followedByWhitespace) || (code === 0x23 && precededByWhitespace)) {
      blockIndicators = true;
    }
    const lineBreak = isLineBreakCode(code);
    if (lineBreak) lineBreaks = true;
    if (!(code === LINE_FEED || (code >= SPACE && code <= 0x7e)) && !isUnicodeText(code)) special = true;
    if (code === SPACE) {
      if (index === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
    } else if (lineBreak) {
      if (index === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
    }
    previousSpace = code === SPACE;
    previousBreak = lineBreak;
    precededByWhitespace = code === 0 || code === SPACE || code === 0x09 || lineBreak;
    index = next;
  }
  const leadingZeroNumber = /^0[0-9_]+$/.test(text);
  let allowBlockPlain = !(
    leadingSpace ||
    leadingBreak ||
    trailingSpace ||
    trailingBreak ||
    leadingZeroNumber
  );
  let allowSingleQuoted = true;
  let allowBlock = !trailingSpace;
  if (breakSpace) allowBlockPlain = allowSingleQuoted = false;
  if (spaceBreak || special) allowBlockPlain = allowSingleQuoted = allowBlock = false;
  if (blockIndicators) allowBlockPlain = false;
  return { multiline: lineBreaks, allowBlockPlain, allowSingleQuoted, allowBlock };
}

function isUnicodeText(code: number): boolean {
  return (
    code === 0x85 ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/**
 * Renders a scalar. `indent` is the column continuation lines start at; `column` the column the scalar's
 * text starts at (after `key: `, `- ` or `? `), which decides where long lines fold. A literal block ends
 * without its last line break (the caller ends every value with one).
 */
export function yamlScalar(value: PropertyValue | null, indent: number, column = 0): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof JavaDouble) return yamlDouble(value.value);
  const writer = new FoldingWriter(indent, column);
  if (!isAllPrintable(value)) {
    writer.write(`${BINARY_TAG} `);
    writer.literal(base64(value));
    return writer.text;
  }
  const analysis = analyze(value);
  // The Representer asks for a literal block for multi-line text; the Emitter grants it unless forbidden.
  if (analysis.multiline) {
    if (analysis.allowBlock) writer.literal(value);
    else writer.doubleQuoted(value, true);
  } else if (analysis.allowBlockPlain && !resolvesToNonString(value)) {
    writer.plain(value, true);
  } else if (analysis.allowSingleQuoted) {
    writer.singleQuoted(value, true);
  } else {
    writer.doubleQuoted(value, true);
  }
  return writer.text;
}

/** DumperOptions' maxSimpleKeyLength: a key this long or longer is written in the explicit `? key` form. */
const MAX_SIMPLE_KEY_LENGTH = 128;
const BINARY_TAG = '!!binary';

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/**
 * The key as SnakeYAML writes a simple key (`key: value`), or undefined when it writes the explicit form
 * (`? key` / `: value`, with the key written like a value): for a key of 128 characters or more (tag
 * included), an empty key and a multi-line one (Emitter.checkSimpleKey). A simple key is never folded.
 */
export function simpleYamlKey(key: string): string | undefined {
  const printable = isAllPrintable(key);
  const text = printable ? key : base64(key);
  const length = text.length + (printable ? 0 : BINARY_TAG.length);
  if (length >= MAX_SIMPLE_KEY_LENGTH || text === '') return undefined;
  const writer = new FoldingWriter(0, 0);
  if (!printable) {
    // A literal block is not allowed for a simple key: the Emitter falls back to double quotes.
    writer.write(`${BINARY_TAG} `);
    writer.doubleQuoted(text, false);
    return writer.text;
  }
  const analysis = analyze(key);
  if (analysis.multiline) return undefined;
  if (analysis.allowBlockPlain && !resolvesToNonString(key)) writer.plain(key, false);
  else if (analysis.allowSingleQuoted) writer.singleQuoted(key, false);
  else writer.doubleQuoted(key, false);
  return writer.text;
}

/** SnakeYAML's representation of a Double: `.NaN`, `.inf`, `-.inf`, otherwise Java's Double.toString. */
function yamlDouble(value: number): string {
  if (Number.isNaN(value)) return '.NaN';
  if (value === Number.POSITIVE_INFINITY) return '.inf';
  if (value === Number.NEGATIVE_INFINITY) return '-.inf';
  return javaDoubleText(value);
}
