/**
 * Profile expressions as Spring's `Profiles.of(...)` reads them: `dev`, `!dev`, `dev & db`,
 * `dev | db`, parentheses, and a comma list meaning "any of". Mixing `&` and `|` without
 * parentheses is rejected, as Spring does ("Malformed profile expression").
 */
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';

export type ProfileNode =
  | { readonly kind: 'profile'; readonly name: string }
  | { readonly kind: 'not'; readonly operand: ProfileNode }
  | { readonly kind: 'and' | 'or'; readonly operands: readonly ProfileNode[] };

export interface ProfileExpression {
  /** The expressions as written (one per list entry or comma-separated part). */
  readonly text: readonly string[];
  /** Matches when any of these matches. */
  readonly anyOf: readonly ProfileNode[];
}

export class ProfileExpressionError extends ConfbusError<'CONFBUS_PROFILE_EXPRESSION'> {
  override readonly name = 'ProfileExpressionError';
  constructor(
    message: string,
    readonly expression: string,
  ) {
    super(coreErrors.CONFBUS_PROFILE_EXPRESSION, message);
  }
}

/** Parses one or more expressions; each entry may itself be a comma list (Spring binds String[]). */
export function parseProfileExpression(input: string | readonly string[]): ProfileExpression {
  const entries = (typeof input === 'string' ? [input] : input).flatMap(splitTopLevelCommas);
  const text = entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (text.length === 0) {
    throw new ProfileExpressionError('Invalid profile expression: must contain text', String(input));
  }
  return { text, anyOf: text.map(parseSingle) };
}

/**
 * True when the expression accepts the active profiles. As in Spring, an empty active list
 * means the `default` profile is active.
 */
export function matchesProfiles(
  expression: ProfileExpression | string | readonly string[],
  activeProfiles: readonly string[],
): boolean {
  const parsed =
    typeof expression === 'string' || Array.isArray(expression)
      ? parseProfileExpression(expression as string | readonly string[])
      : (expression as ProfileExpression);
  const active = new Set(activeProfiles.length === 0 ? ['default'] : activeProfiles);
  return parsed.anyOf.some((node) => evaluate(node, active));
}

function evaluate(node: ProfileNode, active: ReadonlySet<string>): boolean {
  switch (node.kind) {
    case 'profile':
      return active.has(node.name);
    case 'not':
      return !evaluate(node.operand, active);
    case 'and':
      return node.operands.every((operand) => evaluate(operand, active));
    case 'or':
      return node.operands.some((operand) => evaluate(operand, active));
  }
}

function splitTopLevelCommas(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function tokenize(expression: string): string[] {
  const tokens: string[] = [];
  for (const match of expression.matchAll(/[()&|!]|[^()&|!\s]+/g)) tokens.push(match[0]);
  return tokens;
}

/** Parentheses and `!` nested deeper than this are rejected (they recurse; 10,000 overflowed the stack). */
export const MAX_PROFILE_EXPRESSION_DEPTH = 64;

function malformed(expression: string): ProfileExpressionError {
  return new ProfileExpressionError(`Malformed profile expression [${expression}]`, expression);
}

function parseSingle(expression: string): ProfileNode {
  const tokens = tokenize(expression);
  let pos = 0;

  // expr := unary ( ('&' unary)* | ('|' unary)* ) — one operator kind per level, as in Spring.
  const parseExpr = (): ProfileNode => {
    const operands = [parseUnary()];
    let operator: '&' | '|' | undefined;
    while (pos < tokens.length && (tokens[pos] === '&' || tokens[pos] === '|')) {
      const next = tokens[pos] as '&' | '|';
      if (operator !== undefined && operator !== next) throw malformed(expression);
      operator = next;
      pos++;
      operands.push(parseUnary());
    }
    if (operator === undefined) return operands[0] as ProfileNode;
    return { kind: operator === '&' ? 'and' : 'or', operands };
  };

  let depth = 0;
  const nested = <T>(parse: () => T): T => {
    if (++depth > MAX_PROFILE_EXPRESSION_DEPTH) {
      throw new ProfileExpressionError(
        `Profile expression nested more than ${MAX_PROFILE_EXPRESSION_DEPTH} levels deep`,
        expression,
      );
    }
    const result = parse();
    depth--;
    return result;
  };

  const parseUnary = (): ProfileNode => {
    const token = tokens[pos++];
    if (token === undefined) throw malformed(expression);
    if (token === '!') return { kind: 'not', operand: nested(parseUnary) };
    if (token === '(') {
      const inner = nested(parseExpr);
      if (tokens[pos++] !== ')') throw malformed(expression);
      return inner;
    }
    if (token === ')' || token === '&' || token === '|') throw malformed(expression);
    return { kind: 'profile', name: token };
  };

  const node = parseExpr();
  if (pos !== tokens.length) throw malformed(expression);
  return node;
}
