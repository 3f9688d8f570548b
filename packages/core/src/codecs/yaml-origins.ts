/**
 * Where each flattened property of a YAML document was written, as `line:column` (1-based, the value's first
 * character, a quote or `|` included): what Spring's OriginTrackedYamlLoader records and its config server
 * serves as `origin` in the v2 environment JSON. Walks the document the way flattenProperties walks its
 * values, so the names agree; a name this walk does not produce simply has no origin.
 */
import { type Document, type LineCounter, type Node, isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';

/** A plain `<<` merge key: the parser gives it a symbol value (a quoted "<<" is an ordinary key). */
const isMergeKey = (key: unknown): boolean => isScalar(key) && typeof key.value === 'symbol';

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
  // Alias.resolve searches the document for its anchor: each alias is looked up once.
  const anchors = new Map<unknown, Node | null>();
  const resolve = (node: unknown): Node | null => {
    if (!isAlias(node)) return (node as Node | null) ?? null;
    let target = anchors.get(node);
    if (target === undefined) {
      target = node.resolve(document) ?? null;
      anchors.set(node, target);
    }
    return target;
  };

  const walk = (raw: unknown, prefix: string, depth: number): void => {
    const node = resolve(raw);
    if (node === null || depth > 256) return;
    if (isMap(node)) {
      // Merged keys first: explicit keys of the map win over them, wherever the merge is written.
      for (const pair of node.items) {
        if (isMergeKey(pair.key)) walkMerge(pair.value, prefix, depth);
      }
      for (const pair of node.items) {
        if (!isPair(pair) || isMergeKey(pair.key)) continue;
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
