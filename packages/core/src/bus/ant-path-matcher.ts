/**
 * Spring's AntPathMatcher semantics for bus addresses, where the separator is ":" instead of "/":
 * `*` and `?` match within one segment, `**` matches any number of segments (including none),
 * `{name}` matches one segment and `{name:regex}` one segment matching the regex.
 */
const SEPARATOR = ':';

export function antMatch(pattern: string, path: string, separator = SEPARATOR): boolean {
  // AntPathMatcher rejects a match when only one side is rooted (starts with the separator).
  if (pattern.startsWith(separator) !== path.startsWith(separator)) return false;
  const patternTokens = tokenize(pattern, separator);
  const pathTokens = tokenize(path, separator);
  const trailingAgrees = pattern.endsWith(separator) === path.endsWith(separator);
  return matchTokens(patternTokens, 0, pathTokens, 0, trailingAgrees);
}

/** Like Spring's tokenizeToStringArray(s, sep, trimTokens=false, ignoreEmptyTokens=true). */
function tokenize(s: string, separator: string): string[] {
  return s.split(separator).filter((t) => t.length > 0);
}

function matchTokens(
  pattern: string[],
  pi: number,
  path: string[],
  si: number,
  trailingAgrees: boolean,
): boolean {
  if (pi === pattern.length) return si === path.length && trailingAgrees;
  if (pattern[pi] === '**') {
    // `**` at the end swallows everything left, including the trailing separator.
    if (pi === pattern.length - 1) return true;
    for (let k = si; k <= path.length; k++) {
      if (matchTokens(pattern, pi + 1, path, k, trailingAgrees)) return true;
    }
    return false;
  }
  if (si === path.length) return false;
  return (
    segmentMatches(pattern[pi]!, path[si]!) && matchTokens(pattern, pi + 1, path, si + 1, trailingAgrees)
  );
}

const compiled = new Map<string, RegExp>();
const COMPILED_LIMIT = 1000;

function segmentMatches(patternSegment: string, segment: string): boolean {
  if (!/[*?{]/.test(patternSegment)) return patternSegment === segment;
  let re = compiled.get(patternSegment);
  if (!re) {
    re = new RegExp(`^${segmentToRegex(patternSegment)}$`, 's');
    // Destinations come from the network: keep the cache from growing without bound.
    if (compiled.size >= COMPILED_LIMIT) compiled.clear();
    compiled.set(patternSegment, re);
  }
  return re.test(segment);
}

function segmentToRegex(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '{') {
      const end = segment.indexOf('}', i);
      if (end < 0) {
        out += escapeRegex(segment.slice(i));
        break;
      }
      const variable = segment.slice(i + 1, end);
      const colon = variable.indexOf(':');
      out += colon >= 0 ? `(?:${safeRegex(variable.slice(colon + 1))})` : '.*';
      i = end;
    } else out += escapeRegex(c);
  }
  return out;
}

/** A `{name:regex}` body from the wire is only trusted if it compiles; otherwise it matches literally. */
function safeRegex(source: string): string {
  try {
    new RegExp(source);
    return source;
  } catch {
    return escapeRegex(source);
  }
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
