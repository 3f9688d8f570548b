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
/** Java's `.` without DOTALL: anything but line terminators. */
const ANY = '[^\\n\\r\\u0085\\u2028\\u2029]';
const NAME_PREFIX = new RegExp(`\\{name:${ANY}*\\}`);
const PROFILES_PREFIX = new RegExp(`\\{profiles:${ANY}*\\}`);
const LEADING_PREFIXES = new RegExp(`^(?:\\{${ANY}*?:${ANY}*?\\})+`);

/** The lookup keys of a text: always `name` and `profiles`, then every `{k:v}` (or `{k}`) prefix. */
export function encryptorKeys(name: string, profiles: string, text: string): Map<string, string> {
  const keys = new Map<string, string>();
  let rest = text.replace(NAME_PREFIX, '').replace(PROFILES_PREFIX, '');
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
  return value.replace(LEADING_PREFIXES, '');
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
