import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ConfigClient, ConfigClientError, type RefreshEvent } from '@confbus/client';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

const sha = (n: number) => String(n).padStart(40, '0');

describe('ConfigClient.refresh and refreshable components', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };
  let source: Record<string, string | number>;
  let version = 1;

  /** Publishes `source` as a new commit. */
  const publish = () => {
    version++;
    stub.setEnvironment('app', 'default', {
      version: sha(version),
      propertySources: [{ name: 'repo/app.yml', source: { ...source } }],
    });
  };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
  });
  beforeEach(() => {
    source = { 'group.comment': 'one', 'group.profile': 'p1', 'other.key': 'o1', a: 'v1', b: 'v1' };
    publish();
  });
  after(async () => {
    await stub.stop();
    await temp.remove();
  });

  const start = () =>
    ConfigClient.start({
      args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=app'],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
    });

  it('rebuilds only the refreshables whose keys changed and reports added, removed and changed keys', async () => {
    const client = await start();
    const staticComment = client.getString('group.comment');
    const comment = client.refreshable((view) => ({ comment: view.getString('group.comment') }));
    const other = client.refreshable((view) => ({ other: view.getString('other.key') }));
    const events: RefreshEvent[] = [];
    client.on('refresh', (event) => events.push(event));

    source['group.comment'] = 'two';
    delete source['group.profile'];
    source['new.key'] = 'n';
    publish();
    const keys = await client.refresh();

    assert.deepEqual(keys, ['config.client.version', 'group.comment', 'group.profile', 'new.key']);
    assert.deepEqual(events, [{ keys, version: sha(version) }]);
    assert.equal(comment.current.comment, 'two');
    assert.equal(comment.generation, 2);
    assert.equal(other.generation, 1, 'a component that read no changed key is kept');
    assert.equal(staticComment, 'one', 'plain values read at start-up stay');
    assert.equal(client.get('group.profile'), undefined);
    assert.deepEqual(await client.refresh(), [], 'nothing changed: no keys');
    assert.equal(comment.generation, 2);
    await client.close();
  });

  it('rebuilds a component whose value refers to a changed key through a placeholder, and binds by prefix', async () => {
    source['url'] = 'jdbc:${other.key}';
    publish();
    const client = await start();
    const url = client.refreshable((view) => view.getString('url'));
    const group = client.refreshable((view) => view.bind('group'));
    source['other.key'] = 'o2';
    publish();
    assert.deepEqual(await client.refresh(), ['config.client.version', 'other.key']);
    assert.equal(url.current, 'jdbc:o2');
    assert.equal(group.generation, 1);
    source['group.extra'] = 'e';
    publish();
    await client.refresh();
    assert.deepEqual(group.current, { comment: 'one', profile: 'p1', extra: 'e' });
    await client.close();
  });

  it('keeps the previous snapshot when the fetch fails, rejecting and emitting error', async () => {
    const client = await start();
    const errors: ConfigClientError[] = [];
    client.on('error', (error) => errors.push(error));
    source['group.comment'] = 'two';
    publish();
    stub.setFailing(500);
    try {
      await assert.rejects(client.refresh(), (error: unknown) => {
        return (
          error instanceof ConfigClientError &&
          error.code === 'CONFBUS_REFRESH_FAILED' &&
          /answered 500/.test(error.message)
        );
      });
    } finally {
      stub.setFailing(null);
    }
    assert.equal(errors.length, 1);
    assert.equal(client.getString('group.comment'), 'one');
    assert.equal(client.status.version, sha(version - 1));
    assert.match(client.status.lastRefreshError ?? '', /answered 500/);
    await client.refresh();
    assert.equal(client.getString('group.comment'), 'two');
    assert.equal(client.status.lastRefreshError, undefined);
    await client.close();
  });

  it('keeps everything on the previous snapshot when a factory throws while rebuilding', async () => {
    const client = await start();
    const fine = client.refreshable((view) => view.getString('a'));
    const picky = client.refreshable((view) => {
      const value = view.getString('a');
      if (value === 'boom') throw new Error('a must not be boom');
      return value;
    });
    source['a'] = 'boom';
    publish();
    await assert.rejects(client.refresh(), /a refreshable component failed to rebuild: a must not be boom/);
    assert.equal(client.getString('a'), 'v1');
    assert.equal(fine.current, 'v1', 'a component built for the failed refresh is not swapped in');
    assert.equal(fine.generation, 1);
    assert.equal(picky.current, 'v1');
    source['a'] = 'v2';
    publish();
    await client.refresh();
    assert.equal(fine.current, 'v2');
    assert.equal(picky.current, 'v2');
    await client.close();
  });

  it('never lets a reader observe a mix of old and new values', async () => {
    const client = await start();
    // The async factory yields between its reads, so building spans many turns of the event loop.
    const pair = await client.refreshable(async (view) => {
      const a = view.getString('a');
      await nextTurn();
      const b = view.getString('b');
      return { a, b };
    });
    let done = false;
    let reads = 0;
    const seen = new Set<string>();
    const reader = (async () => {
      while (!done) {
        const { a, b } = pair.current;
        assert.equal(a, b, 'holder mixed two snapshots');
        const pinned = client.view();
        assert.equal(pinned.getString('a'), pinned.getString('b'), 'pinned view mixed two snapshots');
        seen.add(a ?? '');
        reads++;
        await nextTurn();
      }
    })();
    for (let round = 2; round <= 5; round++) {
      source['a'] = `v${round}`;
      source['b'] = `v${round}`;
      publish();
      await client.refresh();
    }
    done = true;
    await reader;
    assert.equal(pair.current.a, 'v5');
    assert.ok(reads > 4, `only ${reads} reads`);
    assert.ok(seen.size >= 2, `the reader saw only ${[...seen].join(', ')}`);
    await client.close();
  });

  it('serialises concurrent refresh calls and coalesces those that arrive while one runs', async () => {
    const client = await start();
    const before = stub.requestCount;
    const first = client.refresh();
    const second = client.refresh();
    const third = client.refresh();
    assert.equal(second, third, 'callers waiting behind a running refresh share the follow-up');
    await Promise.all([first, second, third]);
    assert.equal(stub.requestCount - before, 2);
    await client.close();
  });

  it('builds an async component that finishes during a refresh again on the new snapshot', async () => {
    const client = await start();
    source['a'] = 'v2';
    publish();
    const refreshing = client.refresh();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pending = client.refreshable(async (view) => {
      const a = view.getString('a');
      await gate;
      return a;
    });
    await refreshing;
    release();
    const holder = await pending;
    assert.equal(holder.current, 'v2');
    await client.close();
  });

  it('disposes a replaced instance after the swap', async () => {
    const client = await start();
    const disposed: string[] = [];
    const holder = client.refreshable((view) => ({ name: view.getString('a', '') }), {
      dispose: (old) => {
        disposed.push(old.name);
      },
    });
    source['a'] = 'v9';
    publish();
    await client.refresh();
    assert.equal(holder.current.name, 'v9');
    assert.deepEqual(disposed, ['v1']);
    await client.close();
  });
});
