// The refresh logic on fakes (no HTTP, no file): what a refresh applies, keeps, rebuilds, saves and reports.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger, type Environment } from '@confbus/core';
import { ConfigSnapshot, mapLayer } from '../src/snapshot/config-snapshot.js';
import { LiveConfig } from '../src/snapshot/live-config.js';
import type { Refreshable } from '../src/snapshot/refreshable.js';
import { Refresher, type RefreshEvent } from '../src/refresh/refresher.js';
import type { ConfigClientError } from '../src/errors.js';
import { FakeBackup } from './fakes/fake-backup.js';
import { FakeEnvironmentSource } from './fakes/fake-environment-source.js';
import { z } from 'zod';
import { MAX_BOUND_SCHEMAS } from '../src/snapshot/bound-schemas.js';

function environment(properties: Record<string, string>): Environment {
  return {
    name: 'app',
    profiles: ['default'],
    label: null,
    version: 'v1',
    state: null,
    propertySources: [{ name: 'test', source: new Map(Object.entries(properties)) }],
  };
}

/** The snapshot the client builds, minus decryption and local settings (snapshot-factory.ts has those). */
const snapshots = {
  fromEnvironment: (env: Environment, source: 'server') =>
    new ConfigSnapshot(
      env.propertySources.map((ps) => mapLayer(`configserver:${ps.name}`, ps.source)),
      {
        source,
        name: env.name,
        profiles: env.profiles,
        label: env.label,
        version: env.version,
        state: env.state,
      },
    ),
};

async function setUp(properties: Record<string, string>) {
  const source = new FakeEnvironmentSource(properties, 'v1');
  const backup = new FakeBackup();
  const live = new LiveConfig(snapshots.fromEnvironment(await source.fetch(), 'server'), silentLogger);
  const refreshed: RefreshEvent[] = [];
  const failed: ConfigClientError[] = [];
  const refresher = new Refresher({
    source,
    snapshots,
    live,
    backup,
    logger: silentLogger,
    observer: { refreshed: (event) => refreshed.push(event), failed: (error) => failed.push(error) },
  });
  source.fetches = 0;
  return { source, backup, live, refresher, refreshed, failed };
}

describe('Refresher (on a fake environment source and backup)', () => {
  it("checks the new values against the application's bound schemas first: a rejected refresh applies nothing", async () => {
    const { source, backup, live, refresher, failed } = await setUp({ 'db.pool': '5', 'db.url': 'a' });
    const pool = z.object({ pool: z.coerce.number().int().min(1), url: z.string() });
    assert.deepEqual(live.view.bind('db', pool), { pool: 5, url: 'a' });
    const component = live.refreshable((view) => view.getString('db.url'), {}) as Refreshable<
      string | undefined
    >;

    source.serve({ 'db.pool': '0', 'db.url': 'b' }, 'v2');
    await assert.rejects(refresher.refresh(), (error: ConfigClientError) => {
      assert.equal(error.code, 'CONFBUS_REFRESH_FAILED');
      assert.match(
        error.message,
        /version v1\).*rejected by the application's schema: Invalid configuration under 'db': db\.pool: /,
      );
      return true;
    });
    assert.deepEqual([live.view.getString('db.url'), component.current, component.generation], ['a', 'a', 1]);
    assert.equal(refresher.currentVersion(), 'v1');
    assert.equal(backup.saved.length, 0);
    assert.equal(failed.length, 1);

    source.serve({ 'db.pool': '3', 'db.url': 'c' }, 'v3');
    assert.deepEqual(await refresher.refresh(), ['db.pool', 'db.url']);
    assert.equal(component.current, 'c');
  });

  it('remembers each bound schema once, and a bounded number of them', () => {
    const live = new LiveConfig(snapshots.fromEnvironment(environment({ a: '1' }), 'server'), silentLogger);
    const schema = z.object({ a: z.string() });
    for (let i = 0; i < 3; i++) live.view.bind('', schema);
    assert.equal(live.schemas.bindings.length, 1);
    for (let i = 0; i < MAX_BOUND_SCHEMAS + 10; i++) live.view.bind('', z.object({ a: z.string() }));
    assert.equal(live.schemas.bindings.length, MAX_BOUND_SCHEMAS);
    live.view.bind('a');
    assert.equal(
      live.schemas.bindings.length,
      MAX_BOUND_SCHEMAS,
      'a bind without a schema is not remembered',
    );
  });

  it('applies the new configuration, rebuilds only the components that read a changed key, saves and reports', async () => {
    const { source, backup, live, refresher, refreshed } = await setUp({ 'db.url': 'a', 'ui.color': 'red' });
    const db = live.refreshable((view) => view.getString('db.url'), {}) as Refreshable<string | undefined>;
    const ui = live.refreshable((view) => view.getString('ui.color'), {}) as Refreshable<string | undefined>;

    source.serve({ 'db.url': 'b', 'ui.color': 'red', 'new.key': 'x' }, 'v2');
    assert.deepEqual(await refresher.refresh(), ['db.url', 'new.key']);

    assert.equal(live.view.getString('db.url'), 'b');
    assert.deepEqual([db.current, db.generation], ['b', 2]);
    assert.deepEqual([ui.current, ui.generation], ['red', 1]);
    assert.equal(refresher.currentVersion(), 'v2');
    assert.deepEqual(
      backup.saved.map((env) => env.version),
      ['v2'],
    );
    assert.deepEqual(refreshed, [{ keys: ['db.url', 'new.key'], version: 'v2' }]);
  });

  it('keeps the current configuration when the fetch fails, says why until a refresh succeeds', async () => {
    const { source, backup, live, refresher, failed } = await setUp({ 'db.url': 'a' });
    source.failWith('connection refused');
    await assert.rejects(refresher.refresh(), (error: ConfigClientError) => {
      assert.equal(error.code, 'CONFBUS_REFRESH_FAILED');
      assert.match(error.message, /keeping the current configuration \(version v1\).*connection refused/);
      return true;
    });
    assert.equal(live.view.getString('db.url'), 'a');
    assert.match(refresher.lastError ?? '', /connection refused/);
    assert.equal(failed.length, 1);
    assert.equal(backup.saved.length, 0);

    source.serve({ 'db.url': 'b' }, 'v2');
    await refresher.refresh();
    assert.equal(refresher.lastError, undefined);
  });

  it('swaps nothing when a component fails to rebuild: neither the snapshot nor the other components', async () => {
    const { source, live, refresher } = await setUp({ 'db.url': 'a', 'pool.size': '1' });
    const db = live.refreshable((view) => view.getString('db.url'), {}) as Refreshable<string | undefined>;
    live.refreshable((view) => {
      const size = view.getString('pool.size');
      if (size === 'broken') throw new Error('pool cannot start');
      return size;
    }, {});
    source.serve({ 'db.url': 'b', 'pool.size': 'broken' }, 'v2');
    await assert.rejects(refresher.refresh(), /a refreshable component failed to rebuild: pool cannot start/);
    assert.equal(live.view.getString('db.url'), 'a');
    assert.deepEqual([db.current, db.generation], ['a', 1]);
    assert.equal(refresher.currentVersion(), 'v1');
  });

  it('shares one follow-up refresh among the calls made while one runs', async () => {
    const { source, refresher } = await setUp({ key: 'a' });
    const hold = source.holdNextFetch();
    const first = refresher.refresh();
    await hold.reached;
    source.serve({ key: 'b' }, 'v2');
    const second = refresher.refresh();
    const third = refresher.refresh();
    assert.equal(second, third);
    hold.release();
    assert.deepEqual(await first, []);
    assert.deepEqual(await second, ['key']);
    assert.equal(source.fetches, 2);
  });

  it('refreshes on a version check only when the server has another version', async () => {
    const { source, refresher } = await setUp({ key: 'a' });
    assert.equal(await refresher.refreshIfVersionChanged(), null);
    assert.equal(source.fetches, 1);
    source.serve({ key: 'b' }, 'v2');
    assert.deepEqual(await refresher.refreshIfVersionChanged(), { keys: ['key'], from: 'v1', to: 'v2' });
    assert.equal(source.fetches, 2, 'the answer that showed the new version is the one applied: one fetch');
  });

  it('fetches again on a version check when another refresh started while it asked', async () => {
    const { source, refresher, live } = await setUp({ key: 'a' });
    source.serve({ key: 'b' }, 'v2');
    const held = source.holdNextFetch();
    const check = refresher.refreshIfVersionChanged();
    await held.reached;
    // A refresh that starts meanwhile sees v3; the check's older answer (v2) must not be applied after it.
    source.serve({ key: 'c' }, 'v3');
    const refresh = refresher.refresh();
    held.release();
    assert.deepEqual(await refresh, ['key']);
    assert.equal((await check)?.to, 'v3');
    assert.equal(live.view.getString('key'), 'c');
    assert.equal(source.fetches, 3, 'the check, the refresh, and the follow-up the check asked for');
  });

  it('applies an environment a watch change carried as a fetched one: no fetch, saved, reported', async () => {
    const { source, backup, live, refresher, refreshed } = await setUp({ key: 'a' });
    const delivered = { ...environment({ key: 'b' }), version: 'v2' };
    assert.deepEqual(await refresher.applyDelivered(delivered, 'watch'), ['key']);
    assert.equal(live.view.getString('key'), 'b');
    assert.deepEqual([source.fetches, backup.saved.length, refreshed.at(-1)?.version], [0, 1, 'v2']);
    assert.deepEqual(
      await refresher.applyDelivered(delivered, 'watch'),
      [],
      'the version served: nothing to do',
    );
    assert.equal(source.fetches, 0);
  });

  it('fetches instead of applying a delivered environment while another refresh runs', async () => {
    const { source, refresher, live } = await setUp({ key: 'a' });
    source.serve({ key: 'c' }, 'v3');
    const held = source.holdNextFetch();
    const running = refresher.refresh();
    await held.reached;
    // Sent before the running refresh's answer, perhaps: it must not land after it.
    const applied = refresher.applyDelivered({ ...environment({ key: 'b' }), version: 'v2' }, 'watch');
    held.release();
    await running;
    await applied;
    assert.equal(live.view.getString('key'), 'c');
    assert.equal(source.fetches, 2, 'the running refresh and the follow-up the change asked for');
  });

  it("logs one INFO line per refresh, in Spring's words for what asked for it", async () => {
    const lines: string[] = [];
    const logger = {
      ...silentLogger,
      info: (_fields: object, message?: string) => void lines.push(message ?? ''),
    };
    const source = new FakeEnvironmentSource({ key: 'a' }, 'v1');
    const live = new LiveConfig(snapshots.fromEnvironment(await source.fetch(), 'server'), silentLogger);
    const observer = { refreshed: () => undefined, failed: () => undefined };
    const refresher = new Refresher({ source, snapshots, live, backup: new FakeBackup(), logger, observer });
    source.serve({ key: 'b' }, 'v2');
    await refresher.refresh();
    source.serve({ key: 'c' }, 'v3');
    await refresher.refresh({ trigger: 'bus' });
    source.serve({ key: 'd' }, 'v4');
    await refresher.refreshIfVersionChanged('poll');
    assert.deepEqual(lines, [
      'Refresh keys changed: [key]',
      'Keys refreshed [key]',
      'Config server moved from version v3 to v4 without a refresh event reaching this client; Keys refreshed [key]',
    ]);
  });

  it('refuses refreshes once closed', async () => {
    const { refresher } = await setUp({ key: 'a' });
    await refresher.close();
    await assert.rejects(refresher.refresh(), { code: 'CONFBUS_CLIENT_CLOSED' });
  });
});
