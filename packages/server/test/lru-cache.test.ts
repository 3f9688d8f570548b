// The server's LRU, bounded by entries and by estimated bytes (issue #15: the caches counted entries only).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LruCache } from '../src/environment/lru-cache.js';

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
});
