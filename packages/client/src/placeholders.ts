/**
 * `${key}` and `${key:default}` placeholders, resolved across every property source the way
 * Spring's PropertySourcesPropertyResolver does: nested (`${a:${b}}`), recursive, `\${x}` kept
 * literal. An unresolvable placeholder, or one in a cycle, stays as written rather than failing
 * the whole lookup. Expansion is bounded by core's PLACEHOLDER_LIMITS (the server's resolver uses the
 * same): beyond them the budget throws PlaceholderBudgetExceeded, which the caller turns into an error
 * naming the key and its property source.
 */
import { PlaceholderBudget } from '@confbus/core';

export type Lookup = (key: string) => string | number | boolean | undefined;

export function resolvePlaceholders(
  text: string,
  lookup: Lookup,
  visiting: Set<string> = new Set(),
  budget: PlaceholderBudget = new PlaceholderBudget(),
  depth = 0,
): string {
  if (!text.includes('${')) return text;
  budget.enter(depth);
  const inner = (nested: string): string => resolvePlaceholders(nested, lookup, visiting, budget, depth + 1);
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('\\${', i)) {
      const end = findClose(text, i + 3);
      const stop = end === -1 ? text.length : end + 1;
      out += text.slice(i + 1, stop);
      i = stop;
      continue;
    }
    if (!text.startsWith('${', i)) {
      out += text[i];
      i++;
      continue;
    }
    const end = findClose(text, i + 2);
    if (end === -1) {
      out += text.slice(i);
      break;
    }
    const body = text.slice(i + 2, end);
    const colon = topLevelColon(body);
    const key = inner(colon === -1 ? body : body.slice(0, colon));
    let replacement: string | undefined;
    if (!visiting.has(key)) {
      budget.lookup();
      const value = lookup(key);
      if (value !== undefined) {
        visiting.add(key);
        replacement = inner(String(value));
        visiting.delete(key);
      }
    }
    if (replacement === undefined && colon !== -1) {
      replacement = inner(body.slice(colon + 1));
    }
    if (replacement !== undefined) budget.substitute(replacement, out.length);
    out += replacement ?? text.slice(i, end + 1);
    i = end + 1;
  }
  return out;
}

export function hasPlaceholder(text: string): boolean {
  return text.includes('${');
}

function findClose(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text.startsWith('${', i)) {
      depth++;
      i++;
    } else if (text[i] === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function topLevelColon(body: string): number {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    if (body.startsWith('${', i)) {
      depth++;
      i++;
    } else if (body[i] === '}') depth--;
    else if (body[i] === ':' && depth === 0) return i;
  }
  return -1;
}
