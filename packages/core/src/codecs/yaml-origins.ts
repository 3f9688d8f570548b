/**
 * Where each flattened property of a YAML document was written, as `line:column` (1-based, the value's first
 * character, a quote or `|` included): what Spring's OriginTrackedYamlLoader records and its config server
 * serves as `origin` in the v2 environment JSON. Walks the document the way flattenProperties walks its
 * values, so the names agree; a name this walk does not produce simply has no origin.
 */
import type { Document, LineCounter, Node } from 'yaml';
import { yamlLibrary } from './yaml-library.js';

export function yamlOrigins(document: Document, lines: LineCounter): Record<string, string> {
  const walk = new OriginWalk(document, lines);
  const contents = document.contents;
  if (yamlLibrary().isMap(walk.resolve(contents))) walk.node(contents, '', 0);
  else walk.node(contents, 'document', 0);
  return walk.origins;
}

/** One walk of a document, recording the origin of every value it reaches under its flattened name. */
class OriginWalk {
  readonly origins: Record<string, string> = {};
  /** Alias.resolve searches the document for its anchor: each alias is looked up once. */
  private readonly anchors = new Map<unknown, Node | null>();
  private readonly yaml = yamlLibrary();

  constructor(
    private readonly document: Document,
    private readonly lines: LineCounter,
  ) {}

  /** The node an alias stands for (any other node as it is). */
  resolve(node: unknown): Node | null {
    if (!this.yaml.isAlias(node)) return (node as Node | null) ?? null;
    let target = this.anchors.get(node);
    if (target === undefined) {
      target = node.resolve(this.document) ?? null;
      this.anchors.set(node, target);
    }
    return target;
  }

  node(raw: unknown, prefix: string, depth: number): void {
    const node = this.resolve(raw);
    if (node === null || depth > 256) return;
    const { isMap, isPair, isScalar, isSeq } = this.yaml;
    if (isMap(node)) {
      // Merged keys first: explicit keys of the map win over them, wherever the merge is written.
      for (const pair of node.items) {
        if (this.isMergeKey(pair.key)) this.merge(pair.value, prefix, depth);
      }
      for (const pair of node.items) {
        if (!isPair(pair) || this.isMergeKey(pair.key)) continue;
        const key = isScalar(pair.key) ? pair.key.value : undefined;
        const name =
          typeof key === 'string' ? key : `[${key === null || key === undefined ? 'null' : String(key)}]`;
        this.node(pair.value, join(prefix, name), depth + 1);
      }
    } else if (isSeq(node)) {
      if (node.items.length === 0) this.set(prefix, node);
      node.items.forEach((item, index) => this.node(item, `${prefix}[${index}]`, depth + 1));
    } else {
      this.set(prefix, node);
    }
  }

  private merge(raw: unknown, prefix: string, depth: number): void {
    const node = this.resolve(raw);
    // In `<<: [*a, *b]` the first map wins: walk it last.
    if (this.yaml.isSeq(node))
      for (const item of [...node.items].reverse()) this.node(item, prefix, depth + 1);
    else this.node(node, prefix, depth + 1);
  }

  /** A plain `<<` merge key: the parser gives it a symbol value (a quoted "<<" is an ordinary key). */
  private isMergeKey(key: unknown): boolean {
    return this.yaml.isScalar(key) && typeof key.value === 'symbol';
  }

  private set(key: string, node: Node): void {
    if (!node.range || key === '') return;
    const { line, col } = this.lines.linePos(node.range[0]);
    // defineProperty: a key such as `__proto__` is an ordinary own property here.
    Object.defineProperty(this.origins, key, {
      value: `${line}:${col}`,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

function join(prefix: string, key: string): string {
  if (prefix === '') return key;
  return key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`;
}
