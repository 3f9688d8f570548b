/**
 * Spring's PatternMatchUtils.simpleMatch: `*` matches any run of characters (`/` included), every other
 * character only itself, case-sensitively; a pattern without `*` must equal the text. Spring's own
 * implementation recurses on every occurrence of each literal part (polynomial in the text, degree = the number of
 * wildcards); here a pattern is compiled once into tokens and run by the linear automaton (token-automaton.ts).
 */
import { ANY_RUN, type MatchWork, type Token, literal, pushToken, simulate } from './token-automaton.js';

/** A compiled pattern: call it with a text (and, in tests, a work counter). */
export type SimpleMatcher = (text: string, work?: MatchWork) => boolean;

export function simpleMatcher(pattern: string): SimpleMatcher {
  if (!pattern.includes('*')) return (text) => text === pattern;
  const tokens: Token<string>[] = [];
  // By UTF-16 code unit, as the automaton reads the text.
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') pushToken(tokens, ANY_RUN, true);
    else tokens.push(literal(c));
  }
  return (text, work) => simulate(tokens, text, work);
}

export function simpleMatch(pattern: string, text: string, work?: MatchWork): boolean {
  return simpleMatcher(pattern)(text, work);
}
