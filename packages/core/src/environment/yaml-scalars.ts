/**
 * Writes scalars the way SnakeYAML's emitter chooses their style: plain when the text would
 * read back as the same string, single-quoted when a plain scalar would change type (`'on'`,
 * `'123'`, `'2001-12-14'`, `''`) or is not allowed (`': x'`, leading spaces), double-quoted
 * with escapes when the text holds characters YAML cannot print.
 */
import type { PropertyValue } from '../codecs/flatten.js';

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

const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;
const FIRST_INDICATOR = /^[#,[\]{}&*!|>'"%@`]/;
const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?:[ \t\n\r\u0085\u2028\u2029]|$)/;

function resolvesToNonString(text: string): boolean {
  return IMPLICIT.some(([first, pattern]) => first.test(text) && pattern.test(text));
}

function isPrintable(code: number): boolean {
  return (
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0d ||
    (code >= 0x20 && code <= 0x7e) ||
    code === 0x85 ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd && code !== 0xfeff) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

function hasSpecialCharacters(text: string): boolean {
  for (const char of text) if (!isPrintable(char.codePointAt(0) as number)) return true;
  return false;
}

function plainAllowed(text: string): boolean {
  if (text === '' || LINE_BREAK.test(text)) return false;
  if (/^[ \t]|[ \t]$/.test(text)) return false;
  if (FIRST_INDICATOR.test(text) || DOCUMENT_MARKER.test(text)) return false;
  if (/^[-?:](?:[ \t]|$)/.test(text)) return false;
  if (text.includes(': ') || text.includes(':\t') || text.endsWith(':')) return false;
  if (text.includes(' #') || text.includes('\t#')) return false;
  return !resolvesToNonString(text);
}

/** Renders a scalar; `indent` is the column continuation lines of a quoted scalar start at. */
export function yamlScalar(value: PropertyValue | null, indent: number, isKey = false): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return yamlNumber(value);
  if (hasSpecialCharacters(value)) return doubleQuoted(value);
  if (plainAllowed(value)) return value;
  const multiline = LINE_BREAK.test(value);
  // SnakeYAML refuses single quotes for a space right before a line break, and for multi-line keys.
  if (multiline && (isKey || / [\n\r\u0085\u2028\u2029]/.test(value))) return doubleQuoted(value);
  return singleQuoted(value, indent);
}

function yamlNumber(value: number): string {
  if (Number.isNaN(value)) return '.NaN';
  if (value === Number.POSITIVE_INFINITY) return '.inf';
  if (value === Number.NEGATIVE_INFINITY) return '-.inf';
  return String(value);
}

function singleQuoted(text: string, indent: number): string {
  let out = "'";
  const pad = ' '.repeat(indent);
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (LINE_BREAK.test(char)) {
      let end = i;
      while (end < text.length && LINE_BREAK.test(text[end] as string)) end++;
      // Folding turns one newline into a space, so a kept `\n` is written as an empty line.
      if (char === '\n') out += '\n';
      for (let b = i; b < end; b++) out += text[b] === '\r' ? '\n' : text[b];
      out += pad;
      i = end;
      continue;
    }
    out += char === "'" ? "''" : char;
    i++;
  }
  return `${out}'`;
}

const ESCAPES: Record<string, string> = {
  '\0': '\\0',
  '\u0007': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\u000b': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '\u001b': '\\e',
  '"': '\\"',
  '\\': '\\\\',
  '\u0085': '\\N',
  '\u00a0': '\\_',
  '\u2028': '\\L',
  '\u2029': '\\P',
};

function doubleQuoted(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const escape = ESCAPES[char];
    if (escape !== undefined) out += escape;
    else if (isPrintable(code)) out += char;
    else if (code <= 0xff) out += `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += `\\U${code.toString(16).toUpperCase().padStart(8, '0')}`;
  }
  return `${out}"`;
}
