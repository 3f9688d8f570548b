/**
 * Rebuilds nested maps and lists from flattened keys, as the config server's PropertyNavigator
 * does for its `.yml` and `.json` outputs (`a.b[0].c`). Where Spring would fail or lose data,
 * this degrades to a compound key at the nearest enclosing map instead: a key that is both a
 * leaf and a parent keeps its value under the short name and its children under dotted names
 * (`org.springframework: WARN` + `org.springframework.cloud: ERROR` →
 * `org: {springframework: WARN, springframework.cloud: ERROR}`).
 */
import type { FlatProperties, PropertyValue } from '../codecs/flatten.js';

export type TreeNode = PropertyValue | null | TreeMap | TreeList;
export type TreeMap = Map<string, TreeNode>;
export type TreeList = TreeNode[];

type Token =
  | { kind: 'key'; name: string; start: number; end: number }
  | { kind: 'index'; index: number; start: number; end: number };

export function buildPropertyTree(flat: FlatProperties): TreeMap {
  const root: TreeMap = new Map();
  const leaves = new Set(flat.keys());
  for (const [key, value] of flat) place(root, key, value, leaves);
  return root;
}

function place(root: TreeMap, key: string, value: PropertyValue, leaves: ReadonlySet<string>): void {
  const tokens = tokenize(key);
  if (tokens === undefined) {
    root.set(key, value);
    return;
  }
  let container: TreeMap | TreeList = root;
  let enclosingMap: TreeMap = root;
  let enclosingStart = 0;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as Token;
    if (container instanceof Map) {
      enclosingMap = container;
      enclosingStart = token.start;
    }
    const next = tokens[t + 1];
    if (next === undefined) {
      const existing = read(container, token);
      if (existing instanceof Map || Array.isArray(existing)) {
        enclosingMap.set(key.slice(enclosingStart), value);
      } else {
        write(container, token, value);
      }
      return;
    }
    const wantList = next.kind === 'index';
    let child = read(container, token);
    const fits =
      child === undefined || child === null
        ? !leaves.has(key.slice(0, token.end))
        : wantList
          ? Array.isArray(child)
          : child instanceof Map;
    if (!fits) {
      enclosingMap.set(key.slice(enclosingStart), value);
      return;
    }
    if (child === undefined || child === null) {
      child = wantList ? [] : new Map();
      write(container, token, child);
    }
    container = child as TreeMap | TreeList;
  }
}

function read(container: TreeMap | TreeList, token: Token): TreeNode | undefined {
  if (container instanceof Map) return token.kind === 'key' ? container.get(token.name) : undefined;
  return token.kind === 'index' ? container[token.index] : undefined;
}

function write(container: TreeMap | TreeList, token: Token, value: TreeNode): void {
  if (container instanceof Map) {
    if (token.kind === 'key') container.set(token.name, value);
    return;
  }
  if (token.kind !== 'index') return;
  // Fill gaps with null, as PropertyNavigator does.
  while (container.length < token.index) container.push(null);
  container[token.index] = value;
}

/**
 * Splits `a.b[0].c` into tokens as PropertyNavigator reads them; undefined for keys it calls invalid. A name
 * runs to the next `.`, or to a `[` whose brackets hold an index: brackets with anything else (`a[x].b`,
 * `k[1x]`) are part of the name, and a `.` inside them still splits (`m[a.b]` → `m[a`, `b]`), as in Spring.
 */
function tokenize(key: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  let expectKey = true;
  while (i < key.length) {
    if (expectKey) {
      const end = nameEnd(key, i);
      if (end === i) return undefined;
      tokens.push({ kind: 'key', name: key.slice(i, end), start: i, end });
      i = end;
    } else {
      const close = key.indexOf(']', i);
      const digits = close === -1 ? '' : key.slice(i + 1, close);
      if (!isIndex(digits)) return undefined;
      tokens.push({ kind: 'index', index: Number(digits), start: i, end: close + 1 });
      i = close + 1;
    }
    if (i === key.length) break;
    if (key[i] === '.') {
      expectKey = true;
      i++;
      if (i === key.length) return undefined;
    } else if (key[i] === '[') {
      expectKey = false;
    } else {
      return undefined;
    }
  }
  return tokens.length > 0 ? tokens : undefined;
}

/** Where the name starting at `from` ends: at a `.`, at the `[` of an index, or at the end of the key. */
function nameEnd(key: string, from: number): number {
  let open = -1;
  for (let i = from; i < key.length; i++) {
    const char = key[i];
    if (char === '.') return i;
    if (char === '[') open = i;
    else if (char === ']' && open !== -1 && isIndex(key.slice(open + 1, i))) return open;
  }
  return key.length;
}

function isIndex(text: string): boolean {
  return /^[0-9]{1,9}$/.test(text);
}
