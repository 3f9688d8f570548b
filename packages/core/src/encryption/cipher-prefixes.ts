/**
 * The `{name:value}` prefixes a cipher text (or a text to encrypt) may start with, read exactly as Spring's
 * EnvironmentPrefixHelper reads them: `{key:alias}` and `{secret:password}` choose the key-store entry,
 * `{plain}` ends the prefixes early (the text itself starts with a brace), and the caller's application name
 * and profiles always replace any `{name:...}`/`{profiles:...}` in the text. Java's quirks are kept on purpose
 * (greedy `{name:.*}` removal, every `}` in the text scanned), so a text means the same key in both.
 */

const NAME = 'name';
const PROFILES = 'profiles';
const ESCAPE = '{plain}';

// Spring reads the prefixes with java.util.regex: `{name:.*}` and `{profiles:.*}` removed (first match, greedy),
// and the leading `(\{.*?:.*?\})+` stripped. As backtracking RegExps here they cost time quadratic in the text
// (96 K characters of `{name:` took 3 s), and texts arrive in requests (/encrypt, /decrypt) and repositories: the
// same matches are found by the scans below, each character looked at a bounded number of times.

/** The characters Java's `.` (without DOTALL) does not match. */
function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x85 || code === 0x2028 || code === 0x2029;
}

/** `text.replaceFirst("\\{<key>:.*\\}", "")`: from the first `{key:` with a `}` later on its line to the last one. */
export function withoutFirstPrefix(text: string, key: string): string {
  const opener = `{${key}:`;
  for (let from = 0; ;) {
    const start = text.indexOf(opener, from);
    if (start === -1) return text;
    let lineEnd = start + opener.length;
    while (lineEnd < text.length && !isLineTerminator(text.charCodeAt(lineEnd))) lineEnd++;
    for (let close = lineEnd - 1; close >= start + opener.length; close--) {
      if (text.charCodeAt(close) === 0x7d) return text.slice(0, start) + text.slice(close + 1);
    }
    // No `}` after this opener on its line, so none after any later opener on it either.
    from = lineEnd;
  }
}

/** Where `^(\{.*?:.*?\})+` ends: each `{` to the first `:` after it, then to the first `}`, within one line. */
function leadingPrefixesEnd(text: string): number {
  let end = 0;
  for (;;) {
    if (text.charCodeAt(end) !== 0x7b) return end;
    const colon = firstOnLine(text, 0x3a, end + 1);
    if (colon === -1) return end;
    const close = firstOnLine(text, 0x7d, colon + 1);
    if (close === -1) return end;
    end = close + 1;
  }
}

/** The first `code` at or after `from` before a line terminator, or -1. */
function firstOnLine(text: string, code: number, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === code) return i;
    if (isLineTerminator(c)) return -1;
  }
  return -1;
}

/** The lookup keys of a text: always `name` and `profiles`, then every `{k:v}` (or `{k}`) prefix. */
export function encryptorKeys(name: string, profiles: string, text: string): Map<string, string> {
  const keys = new Map<string, string>();
  let rest = withoutFirstPrefix(withoutFirstPrefix(text, NAME), PROFILES);
  keys.set(NAME, name);
  keys.set(PROFILES, profiles);
  const escape = rest.indexOf(ESCAPE);
  if (escape !== -1) rest = rest.slice(0, escape);
  // Spring's StringUtils.split: at the first `}`, as long as there is one.
  for (let close = rest.indexOf('}'); close !== -1 && rest !== ''; close = rest.indexOf('}')) {
    const token = javaTrim(rest.slice(0, close));
    if (token.startsWith('{')) {
      const colon = token.indexOf(':');
      if (colon !== -1 && !token.endsWith(':')) keys.set(token.slice(1, colon), token.slice(colon + 1));
      else keys.set(token.slice(1), '');
    }
    rest = rest.slice(close + 1);
  }
  return keys;
}

/** The text without its prefixes (after `{plain}` when there is one). */
export function stripPrefixes(value: string): string {
  if (!value.includes('}')) return value;
  const escape = value.indexOf(ESCAPE);
  if (escape !== -1) return value.slice(escape + ESCAPE.length);
  return value.slice(leadingPrefixesEnd(value));
}

/** The prefixes to put back in front of a fresh cipher text: every key but name and profiles. */
export function addPrefixes(keys: ReadonlyMap<string, string>, cipherText: string): string {
  let prefix = '';
  for (const [key, value] of keys) {
    if (key !== NAME && key !== PROFILES) prefix += `{${key}:${value}}`;
  }
  return prefix + cipherText;
}

/** Java's String.trim: strips characters up to U+0020 only (JavaScript's trim also strips Unicode spaces). */
function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}
