/**
 * Where each flattened property of a YAML document was written, as `line:column` (1-based, the value's first
 * character, a quote or `|` included): what Spring's OriginTrackedYamlLoader records and its config server
 * serves as `origin` in the v2 environment JSON. Walks the document the way flattenProperties walks its
 * values, so the names agree; a name this walk does not produce simply has no origin.
 */
import { type Document, type LineCounter, type Node, isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';

const MERGE = '<<';

export function yamlOrigins(document: Document, lines: LineCounter): Record<string, string> {
  const origins: Record<string, string> = {};
  const at = (node: Node | null | undefined): string | undefined => {
    if (!node?.range) return undefined;
    const { line, col } = lines.linePos(node.range[0]);
    return `${line}:${col}`;
  };
  const set = (key: string, node: Node | null | undefined) => {
    const origin = at(node);
    if (origin !== undefined && key !== '') {
      Object.defineProperty(origins, key, {
        value: origin,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  };
  const resolve = (node: unknown): Node | null =>
    isAlias(node) ? (node.resolve(document) ?? null) : ((node as Node | null) ?? null);

  const walk = (raw: unknown, prefix: string, depth: number): void => {
    const node = resolve(raw);
    if (node === null || depth > 256) return;
    if (isMap(node)) {
      // Merged keys first: explicit keys of the map win over them, wherever the merge is written.
      for (const pair of node.items) {
        if (isScalar(pair.key) && pair.key.value === MERGE) walkMerge(pair.value, prefix, depth);
      }
      for (const pair of node.items) {
        if (!isPair(pair) || (isScalar(pair.key) && pair.key.value === MERGE)) continue;
        const key = isScalar(pair.key) ? pair.key.value : undefined;
        const name =
          typeof key === 'string' ? key : `[${key === null || key === undefined ? 'null' : String(key)}]`;
        walk(pair.value, join(prefix, name), depth + 1);
      }
    } else if (isSeq(node)) {
      if (node.items.length === 0) set(prefix, node);
      node.items.forEach((item, index) => walk(item, `${prefix}[${index}]`, depth + 1));
    } else {
      set(prefix, node);
    }
  };
  const walkMerge = (raw: unknown, prefix: string, depth: number): void => {
    const node = resolve(raw);
    // In `<<: [*a, *b]` the first map wins: walk it last.
    if (isSeq(node)) for (const item of [...node.items].reverse()) walk(item, prefix, depth + 1);
    else walk(node, prefix, depth + 1);
  };

  const contents = document.contents;
  if (isMap(resolve(contents))) walk(contents, '', 0);
  else walk(contents, 'document', 0);
  return origins;
}

function join(prefix: string, key: string): string {
  if (prefix === '') return key;
  return key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`;
}
