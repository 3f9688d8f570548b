/**
 * A small LRU on top of Map's insertion order, bounded by entries and, optionally, by the summed weight
 * (estimated bytes) of its values. Hand-written because it is a few dozen lines and the server needs nothing
 * more (no TTL: entries are keyed by commit id, so they never go stale).
 */
export interface LruWeight<V> {
  /** Largest summed weight kept; the least recently used entries go first. */
  maxWeight: number;
  weigh(value: V): number;
}

export class LruCache<K, V> {
  private readonly map = new Map<K, { readonly value: V; weight: number }>();
  private totalWeight = 0;
  /** The key last inserted or moved to the end of `map`, while it is still there. */
  private newest: K | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly weight?: LruWeight<V>,
  ) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    // Already the most recent (a hot key asked for again): no reordering, which costs a delete and an insert.
    if (key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, entry);
      this.newest = key;
    }
    return entry.value;
  }

  /** The value without making it the most recent: a read on a hot path that set() keeps fresh enough. */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weight?.weigh(value) ?? 0;
    // A value heavier than the whole budget is not kept at all (it would evict everything else).
    if (this.weight && weight > this.weight.maxWeight) return;
    this.map.set(key, { value, weight });
    this.newest = key;
    this.totalWeight += weight;
    this.evictBeyondBounds();
  }

  /**
   * Weighs `key`'s value again, after it grew (a serialisation built on first use), and evicts the least
   * recently used entries beyond the budget; a value now heavier than the whole budget is let go.
   */
  reweigh(key: K): void {
    const entry = this.map.get(key);
    if (entry === undefined || !this.weight) return;
    const weight = this.weight.weigh(entry.value);
    this.totalWeight += weight - entry.weight;
    entry.weight = weight;
    if (weight > this.weight.maxWeight) this.delete(key);
    else this.evictBeyondBounds();
  }

  delete(key: K): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.totalWeight -= entry.weight;
    this.map.delete(key);
    if (key === this.newest) this.newest = undefined;
  }

  /** Deletes every entry that `matches` (a walk over all entries: for a rare sweep, not a request). */
  deleteWhere(matches: (key: K, value: V) => boolean): number {
    let deleted = 0;
    for (const [key, entry] of [...this.map]) {
      if (!matches(key, entry.value)) continue;
      this.delete(key);
      deleted++;
    }
    return deleted;
  }

  private evictBeyondBounds(): void {
    while (this.map.size > this.maxEntries || (this.weight && this.totalWeight > this.weight.maxWeight)) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  get size(): number {
    return this.map.size;
  }

  /** Summed weight of the values kept. */
  get weightKept(): number {
    return this.totalWeight;
  }
}
