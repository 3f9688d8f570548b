import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApplicationConfig, RefreshEvent } from '@confbus/client';
import { createTestConfig } from '@confbus/client/testing';
import { z } from 'zod';

/** Application code typed against what it uses of the client: takes the real client or the double. */
function greeter(config: ApplicationConfig) {
  return config.refreshable((view) => ({
    greet: (who: string) => `${view.getString('greeting', 'hi')} ${who}`,
  }));
}

describe('createTestConfig (@confbus/client/testing)', () => {
  it('serves nested values and Spring keys through the client API', async () => {
    const config = createTestConfig(
      { db: { url: 'jdbc:x', pool: { size: 5 } }, tags: ['a', 'b'], 'feature.on': true, unset: null },
      { name: 'orders', profiles: ['test'] },
    );
    assert.equal(config.getString('db.url'), 'jdbc:x');
    assert.equal(config.getNumber('db.pool.size'), 5);
    assert.equal(config.getBoolean('feature.on'), true);
    assert.equal(config.has('unset'), false);
    assert.equal(config.getString('missing', 'fallback'), 'fallback');
    assert.deepEqual(config.bind('tags'), ['a', 'b']);
    assert.deepEqual(config.bind('db', z.object({ url: z.string(), pool: z.object({ size: z.number() }) })), {
      url: 'jdbc:x',
      pool: { size: 5 },
    });
    assert.throws(() => config.getOrThrow('missing'), /Configuration key 'missing' is not set/);
    assert.equal(config.status.name, 'orders');
    assert.deepEqual(config.status.profiles, ['test']);
    await config.close();
  });

  it('refresh(newValues) rebuilds the components that read a changed key and emits the refresh event', async () => {
    const config = createTestConfig({ greeting: 'hello', other: 1 });
    const component = greeter(config);
    let builds = 0;
    const counted = config.refreshable((view) => {
      builds++;
      return view.getNumber('other');
    });
    const events: RefreshEvent[] = [];
    config.on('refresh', (event) => events.push(event));
    assert.equal(component.current.greet('ann'), 'hello ann');
    const pinned = config.view();

    assert.deepEqual(await config.refresh({ greeting: 'howdy', other: 1 }), ['greeting']);
    assert.equal(component.current.greet('ann'), 'howdy ann');
    assert.equal(builds, 1, 'a component that read no changed key is not rebuilt');
    assert.equal(pinned.getString('greeting'), 'hello', 'a pinned view keeps its snapshot');
    assert.deepEqual(
      events.map((event) => event.keys),
      [['greeting']],
    );
    assert.equal(counted.current, 1);
    await config.close();
  });

  it('a component that refuses the new values keeps the old configuration, as the client does', async () => {
    const config = createTestConfig({ port: 80 });
    const port = config.refreshable((view) => z.number().int().positive().parse(view.getNumber('port')));
    await assert.rejects(config.refresh({ port: -1 }), /Refresh failed, keeping the current configuration/);
    assert.equal(port.current, 80);
    assert.equal(config.getNumber('port'), 80);
    assert.match(config.status.lastRefreshError ?? '', /a refreshable component failed to rebuild/);
    await config.close();
  });
});
