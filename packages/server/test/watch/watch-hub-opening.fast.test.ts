// A recheck that comes while a topic's first read is under way (a restarted server fetching upstream as its
// fleet reconnects) must not leave that topic on what it read before: it is checked again once open.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Environment, silentLogger } from '@confbus/core';
import { waitFor } from '@confbus/testkit/wait-for';
import type { FoundEnvironment } from '../../src/environment/environment-finder.js';
import { ResolvedEnvironment } from '../../src/environment/resolved-environment.js';
import type { Delivery } from '../../src/watch/watch-deliveries.js';
import { WatchHub } from '../../src/watch/watch-hub.js';

const REQUEST = { name: 'foo', applications: ['foo'], profilesText: 'dev', profiles: ['dev'], label: null };

const found = (version: string, value: string): FoundEnvironment => {
  const environment: Environment = {
    name: 'foo',
    profiles: ['dev'],
    label: null,
    version,
    state: null,
    propertySources: [{ name: 'repo/foo-dev.yml', source: new Map(Object.entries({ greeting: value })) }],
  };
  return {
    resolved: new ResolvedEnvironment(environment),
    revision: { label: 'main', commit: version, stale: false },
  };
};

describe('WatchHub: a recheck during a first read', () => {
  it('checks the topic again once it is open, and tells its watchers of the change', async () => {
    let releaseFirst!: (value: FoundEnvironment) => void;
    const first = new Promise<FoundEnvironment>((resolve) => (releaseFirst = resolve));
    let reads = 0;
    const hub = new WatchHub({
      // The first read is held (it read v1 before the fetch); every later one reads v2.
      finder: { find: () => (reads++ === 0 ? first : Promise.resolve(found('v2', 'after'))) },
      origin: 'test:watch',
      published: () => undefined,
      logger: silentLogger,
      maxEnvironmentBytes: 16_384,
    });
    const deliveries: Delivery[] = [];
    const subscribing = hub.subscribe(REQUEST, 'v1', { deliver: (d) => void deliveries.push(d) });
    await hub.recheck(); // the fetch moved the upstream: no topic to check yet
    releaseFirst(found('v1', 'before'));
    const subscription = await subscribing;
    assert.deepEqual([subscription.version, subscription.missed], ['v1', undefined]);
    await waitFor('the change', () => deliveries.length === 1);
    assert.deepEqual(
      [deliveries[0]!.change.from, deliveries[0]!.change.version, deliveries[0]!.change.keys],
      ['v1', 'v2', ['greeting']],
    );
  });
});
