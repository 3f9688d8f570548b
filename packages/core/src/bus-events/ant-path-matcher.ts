/**
 * Spring's AntPathMatcher semantics for bus addresses, where the separator is ":" instead of "/":
 * `*` and `?` match within one segment, `**` matches any number of segments (including none),
 * `{name}` matches any run of characters within one segment.
 *
 * Destinations come from the network (any bus message, any `POST /actuator/busrefresh/{destination}`), so
 * matching must cost time linear in the sizes of pattern and path whatever the pattern is. Spring compiles each
 * segment into a java.util.regex (backtracking: `*********z` took seconds per match). Here a pattern is a list
 * of tokens run by the linear automaton of ../matching/token-automaton.ts (the repository patterns' too), once
 * over segments and once over the characters of a segment: O(pattern length × path length) steps, never
 * exponential.
 *
 * `{name:regex}`: AntPathMatcher tokenises the pattern on the separator before it looks at variables, so with
 * ":" as the separator a `{name:regex}` is always cut in two (`{name` and `regex}`) and its body never reaches a
 * regex engine — in Spring as here. Only `{name}` (any run of characters) can occur, and an unclosed `{` is
 * literal; no part of a destination is ever compiled into a JavaScript RegExp.
 */
import {
  ANY_RUN,
  ONE_CHARACTER,
  type Token,
  literal,
  pushToken,
  simulate,
} from '../matching/token-automaton.js';

const SEPARATOR = ':';

/** Longest destination pattern matched; a longer one addresses no one (real ones are a few dozen characters). */
export const MAX_DESTINATION_PATTERN_LENGTH = 1024;
/** Most `:`-separated segments in a destination pattern; more addresses no one. */
export const MAX_DESTINATION_SEGMENTS = 64;

export function antMatch(pattern: string, path: string, separator = SEPARATOR): boolean {
  if (pattern.length > MAX_DESTINATION_PATTERN_LENGTH) return false;
  // AntPathMatcher rejects a match when only one side is rooted (starts with the separator).
  if (pattern.startsWith(separator) !== path.startsWith(separator)) return false;
  const patternSegments = tokenize(pattern, separator);
  if (patternSegments.length > MAX_DESTINATION_SEGMENTS) return false;
  const pathSegments = tokenize(path, separator);
  const endsWithDoubleStar = patternSegments[patternSegments.length - 1] === '**';
  // A trailing `**` swallows everything left, including a trailing separator; otherwise both must agree.
  if (!endsWithDoubleStar && pattern.endsWith(separator) !== path.endsWith(separator)) return false;
  const tokens: Token<string>[] = [];
  for (const segment of patternSegments) {
    if (segment === '**') pushToken(tokens, { repeat: true, test: () => true }, true);
    else tokens.push({ test: segmentMatcher(segment) });
  }
  return simulate(tokens, pathSegments);
}

/** Like Spring's tokenizeToStringArray(s, sep, trimTokens=false, ignoreEmptyTokens=true). */
function tokenize(s: string, separator: string): string[] {
  return s.split(separator).filter((t) => t.length > 0);
}

const compiled = new Map<string, (segment: string) => boolean>();
const COMPILED_LIMIT = 1000;

function segmentMatcher(patternSegment: string): (segment: string) => boolean {
  if (!/[*?{]/.test(patternSegment)) return (segment) => segment === patternSegment;
  let matcher = compiled.get(patternSegment);
  if (!matcher) {
    const tokens = segmentTokens(patternSegment);
    matcher = (segment) => simulate(tokens, segment);
    // Destinations come from the network: keep the cache from growing without bound.
    if (compiled.size >= COMPILED_LIMIT) compiled.clear();
    compiled.set(patternSegment, matcher);
  }
  return matcher;
}

/** The tokens of one segment: `*` any run, `?` one character, `{name}` any run, anything else itself. */
function segmentTokens(segment: string): Token<string>[] {
  const tokens: Token<string>[] = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === '*') pushToken(tokens, ANY_RUN, true);
    else if (c === '?') tokens.push(ONE_CHARACTER);
    else if (c === '{') {
      const end = segment.indexOf('}', i);
      if (end < 0) {
        for (const rest of segment.slice(i)) tokens.push(literal(rest));
        break;
      }
      // `{name}`; a `{name:regex}` never arrives whole, see the top of the file.
      pushToken(tokens, ANY_RUN, true);
      i = end;
    } else tokens.push(literal(c));
  }
  return tokens;
}
