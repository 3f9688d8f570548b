// The server's LRU, bounded by entries and by estimated bytes (issue #15: the caches counted entries only).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LruCache } from '../../src/support/lru-cache.js';

describe('LruCache', () => {
  it('evicts the least recently used entries beyond maxEntries or maxWeight, and skips an oversized value', () => {
    const cache = new LruCache<string, string>(10, { maxWeight: 100, weigh: (v) => v.length });
    cache.set('a', 'x'.repeat(40));
    cache.set('b', 'x'.repeat(40));
    assert.ok(cache.get('a')); // a is now the most recently used
    cache.set('c', 'x'.repeat(40)); // 120 > 100: b goes
    assert.equal(cache.get('b'), undefined);
    assert.ok(cache.get('a') && cache.get('c'));
    assert.equal(cache.weightKept, 80);
    cache.set('huge', 'x'.repeat(101));
    assert.equal(cache.get('huge'), undefined, 'a value over the whole budget is not kept');
    assert.equal(cache.size, 2);
    const counted = new LruCache<number, number>(3);
    for (let i = 0; i < 5; i++) counted.set(i, i);
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((i) => counted.get(i)),
      [undefined, undefined, 2, 3, 4],
    );
  });

  it('keeps exact LRU order when the most recent key is asked for again (no reordering then)', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('b'), 2); // already the newest
    assert.equal(cache.get('a'), 1); // a becomes the newest
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3); // b is the least recently used
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c')], [1, undefined, 3]);
    cache.delete('c'); // the newest gone: the next get of a reorders again
    assert.equal(cache.get('a'), 1);
    cache.set('d', 4);
    cache.set('e', 5); // a is older than d
    assert.deepEqual([cache.get('a'), cache.get('d'), cache.get('e')], [undefined, 4, 5]);
  });

  it('weighs a value again when it grew, evicting the least recently used beyond the budget', () => {
    const sizes = new Map<string, number>([
      ['a', 30],
      ['b', 30],
      ['c', 30],
    ]);
    const cache = new LruCache<string, string>(10, { maxWeight: 100, weigh: (v) => sizes.get(v) ?? 0 });
    for (const key of ['a', 'b', 'c']) cache.set(key, key);
    sizes.set('c', 60); // c kept a rendering
    cache.reweigh('c');
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c')], [undefined, 'b', 'c']);
    assert.equal(cache.weightKept, 90);
    sizes.set('b', 200); // heavier than the whole budget: let go
    cache.reweigh('b');
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.weightKept, 60);
    cache.reweigh('gone'); // not cached: nothing happens
    assert.equal(cache.size, 1);
  });

  it('peeks without making an entry the most recent', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.peek('a'), 1);
    cache.set('c', 3); // a was only peeked at: still the least recently used
    assert.deepEqual([cache.peek('a'), cache.peek('b'), cache.peek('c')], [undefined, 2, 3]);
  });

  it('deletes the entries a predicate matches, and their weight', () => {
    const cache = new LruCache<string, number>(10, { maxWeight: 100, weigh: (v) => v });
    for (const [key, value] of [
      ['x1', 10],
      ['y1', 20],
      ['x2', 30],
    ] as const)
      cache.set(key, value);
    assert.equal(
      cache.deleteWhere((key, value) => key.startsWith('x') && value > 5),
      2,
    );
    assert.deepEqual([cache.get('x1'), cache.get('y1'), cache.get('x2')], [undefined, 20, undefined]);
    assert.equal(cache.weightKept, 20);
  });
});
