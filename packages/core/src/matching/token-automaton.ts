/**
 * Wildcard matching in time linear in the input, whatever the pattern: the one mechanism behind the bus's
 * destination patterns (Ant style, bus-events/ant-path-matcher.ts) and the server's repository patterns (Spring's
 * PatternMatchUtils.simpleMatch, simple-match.ts). Both kinds of pattern meet input from the network, where a
 * backtracking regular expression can be made to run for seconds (`*-*-*` against a long name).
 *
 * A pattern is a list of tokens — "exactly one element matching X" or "any number of elements matching X" — run
 * as a set of states over the input (Thompson's simulation): each input element is tested at most once per token,
 * so a match costs at most tokens × input steps, never more.
 */

/** One pattern element: exactly one input element passing `test`, or with `repeat` any number (zero too). */
export interface Token<T> {
  readonly test: (element: T) => boolean;
  readonly repeat?: boolean;
}

/** Counts the token tests a match made (tests assert the bound above with it). */
export interface MatchWork {
  steps: number;
}

/**
 * Whether `input` as a whole matches the token list. `active[i]` = "the tokens before i have matched the input
 * read so far"; each input element is tested at most once per token, so the cost is tokens × input.
 */
export function simulate<T>(tokens: readonly Token<T>[], input: ArrayLike<T>, work?: MatchWork): boolean {
  let active = new Uint8Array(tokens.length + 1);
  let next = new Uint8Array(tokens.length + 1);
  active[0] = 1;
  closure(tokens, active);
  for (let position = 0; position < input.length; position++) {
    const element = input[position] as T;
    next.fill(0);
    let any = false;
    for (let i = 0; i < tokens.length; i++) {
      if (active[i] !== 1) continue;
      const token = tokens[i] as Token<T>;
      if (work) work.steps++;
      if (!token.test(element)) continue;
      next[token.repeat ? i : i + 1] = 1;
      any = true;
    }
    if (!any) return false;
    closure(tokens, next);
    [active, next] = [next, active];
  }
  return active[tokens.length] === 1;
}

/** A repeat token may match nothing: being before it also means being after it. */
function closure<T>(tokens: readonly Token<T>[], active: Uint8Array): void {
  for (let i = 0; i < tokens.length; i++) {
    if (active[i] === 1 && (tokens[i] as Token<T>).repeat) active[i + 1] = 1;
  }
}

const anything = new WeakSet<object>();

/** Adjacent repeat tokens that accept anything (`**`, `***`, `:**:**:`) are one: fewer states, same language. */
export function pushToken<T>(tokens: Token<T>[], token: Token<T>, matchesAnything: boolean): void {
  const last = tokens[tokens.length - 1];
  if (matchesAnything && token.repeat && last !== undefined && anything.has(last)) return;
  tokens.push(token);
  if (matchesAnything && token.repeat) anything.add(token);
}

/** Any run of characters (`*`). */
export const ANY_RUN: Token<string> = { repeat: true, test: () => true };
/** Exactly one character (`?`). */
export const ONE_CHARACTER: Token<string> = { test: () => true };

/** Exactly the character `c`. */
export function literal(c: string): Token<string> {
  return { test: (x) => x === c };
}
