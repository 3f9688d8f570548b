// A staged rollout's change told to watchers (WatchHub.announce): the watchers of the rollout's applications get
// a change naming the commit (no keys: they fetch, and the server answers each instance by its wave), recorded
// as a refresh event like any other; watchers of other applications hear nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type RefreshBusEvent, silentLogger } from '@confbus/core';
import type { EnvironmentFinder, FoundEnvironment } from '../../src/environment/environment-finder.js';
import type { EnvironmentRequest } from '../../src/environment/environment-service.js';
import { type Delivery, WatchHub } from '../../src/watch/watch-hub.js';

const HEAD = 'c'.repeat(40);
const A = 'a'.repeat(40);

const request = (name: string): EnvironmentRequest => ({
  name,
  applications: [name],
  profilesText: 'default',
  profiles: ['default'],
  label: null,
});

const finder: EnvironmentFinder = {
  find: async (req) =>
    ({
      resolved: {
        environment: { name: req.name, profiles: ['default'], version: HEAD, propertySources: [] },
      },
      revision: { commit: HEAD },
    }) as unknown as FoundEnvironment,
};

describe('watch hub: rollout announcements', () => {
  it("tells the rollout's applications' watchers to fetch, naming the commit, and records the event", async () => {
    const published: Array<{ event: RefreshBusEvent; version: string }> = [];
    const hub = new WatchHub({
      finder,
      origin: 'server:watch',
      logger: silentLogger,
      published: (event, version) => published.push({ event, version }),
      // Keys only: an announcement never carries an environment (each instance's commit is its wave's).
      maxEnvironmentBytes: 0,
    });
    const told: Record<string, Delivery[]> = { orders: [], billing: [] };
    for (const name of ['orders', 'billing'])
      await hub.subscribe(request(name), HEAD, { deliver: (delivery) => told[name]!.push(delivery) });

    await hub.announce(['orders'], A);

    assert.deepEqual(
      told.orders!.map((d) => ({ ...d.change, event: typeof d.change.event })),
      [{ event: 'string', version: A, from: null, keys: null }],
    );
    assert.deepEqual(told.billing, [], 'other applications hear nothing');
    assert.deepEqual(
      published.map((p) => [p.event.destinationService, p.event.configVersion, p.version]),
      [['orders:default:**', A, A]],
    );
  });
});
