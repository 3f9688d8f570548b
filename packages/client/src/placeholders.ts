/**
 * `${key}` and `${key:default}` placeholders, resolved across every property source the way
 * Spring's PropertySourcesPropertyResolver does: nested (`${a:${b}}`), recursive, `\${x}` kept
 * literal. An unresolvable placeholder, or one in a cycle, stays as written rather than failing
 * the whole lookup.
 */
export type Lookup = (key: string) => string | number | boolean | undefined;

export function resolvePlaceholders(text: string, lookup: Lookup, visiting: Set<string> = new Set()): string {
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
    const key = resolvePlaceholders(colon === -1 ? body : body.slice(0, colon), lookup, visiting);
    let replacement: string | undefined;
    if (!visiting.has(key)) {
      const value = lookup(key);
      if (value !== undefined) {
        visiting.add(key);
        replacement = resolvePlaceholders(String(value), lookup, visiting);
        visiting.delete(key);
      }
    }
    if (replacement === undefined && colon !== -1) {
      replacement = resolvePlaceholders(body.slice(colon + 1), lookup, visiting);
    }
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
