// Changes carrying the environment, on a fake finder: the renderings (the body's own bytes between a head and a
// tail, valid JSON and one SSE message), the size bound, who is sent what (only watchers that asked; none while
// a staged rollout holds the topic), the catch-up, and `?include=` parsing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Environment, silentLogger } from '@confbus/core';
import type { FoundEnvironment } from '../../src/environment/environment-finder.js';
import type { EnvironmentRequest } from '../../src/environment/environment-service.js';
import { ResolvedEnvironment } from '../../src/environment/resolved-environment.js';
import {
  type Delivery,
  deliveryOf,
  inlineBody,
  renderingFor,
  withoutEnvironment,
} from '../../src/watch/watch-deliveries.js';
import { WatchHub } from '../../src/watch/watch-hub.js';
import { includesEnvironment } from '../../src/watch/watch-routes.js';

const REQUEST: EnvironmentRequest = {
  name: 'foo',
  applications: ['foo'],
  profilesText: 'dev',
  profiles: ['dev'],
  label: null,
};

const environmentAt = (version: string, source: Record<string, string>): Environment => ({
  name: 'foo',
  profiles: ['dev'],
  label: null,
  version,
  state: null,
  propertySources: [{ name: 'repo/foo-dev.yml', source: new Map(Object.entries(source)) }],
});

/** The data of one SSE message, parsed. */
function sseData(bytes: Buffer): Record<string, unknown> {
  const text = bytes.toString();
  assert.ok(text.endsWith('\n\n'), 'one message, ended by a blank line');
  const lines = text.slice(0, -2).split('\n');
  assert.equal(lines.length, 3, 'id, event and one data line');
  assert.equal(lines[1], 'event: change');
  return JSON.parse(lines[2]!.slice('data: '.length)) as Record<string, unknown>;
}

describe('watch deliveries', () => {
  const change = { event: 'e', version: 'v2', from: 'v1', keys: ['a'] };
  const body = Buffer.from(
    '{"name":"foo","version":"v2","propertySources":[{"name":"x","source":{"a":"é"}}]}',
  );

  it('renders the change alone, and with the environment body as its `environment`', () => {
    const delivery = deliveryOf(change, body);
    assert.deepEqual(sseData(delivery.sse), change);
    assert.deepEqual(JSON.parse(delivery.json.toString()), change);
    const withEnvironment = { ...change, environment: JSON.parse(body.toString()) as unknown };
    assert.deepEqual(sseData(delivery.withEnvironment!.sse), withEnvironment);
    assert.deepEqual(JSON.parse(delivery.withEnvironment!.json.toString()), withEnvironment);
    assert.ok(delivery.withEnvironment!.sse.toString().startsWith(`id: v2\nevent: change\ndata: {"event"`));
  });

  it('gives the environment only to a watcher that asked for it, and only when there is one', () => {
    const delivery = deliveryOf(change, body);
    assert.equal(renderingFor(delivery, false), delivery);
    assert.equal(renderingFor(delivery, true), delivery.withEnvironment);
    const keysOnly = deliveryOf(change);
    assert.equal(renderingFor(keysOnly, true), keysOnly, 'none to send: the keys');
    assert.equal(withoutEnvironment(delivery).withEnvironment, undefined);
    assert.deepEqual(sseData(renderingFor(withoutEnvironment(delivery), true).sse), change);
  });

  it('sends a body only within the bound, and never one holding a line break', () => {
    assert.equal(inlineBody(body, body.length), body);
    assert.equal(inlineBody(body, body.length - 1), undefined);
    assert.equal(inlineBody(body, 0), undefined);
    assert.equal(inlineBody(undefined, 1_000_000), undefined, 'a large body not built yet');
    assert.equal(inlineBody(Buffer.from('{"a":\n1}'), 100), undefined);
    assert.equal(inlineBody(Buffer.from('{"a":\r1}'), 100), undefined);
  });

  it('reads ?include= as a comma list, ignoring what it does not know', () => {
    assert.equal(includesEnvironment(undefined), false);
    assert.equal(includesEnvironment('environment'), true);
    assert.equal(includesEnvironment('diff, environment'), true);
    assert.equal(includesEnvironment(['diff', 'environment']), true);
    assert.equal(includesEnvironment('environments'), false);
  });
});

/** A finder serving the environment a test sets (its body built by ResolvedEnvironment, as the endpoint's). */
function fakeFinder(initial: Environment) {
  let current = initial;
  return {
    serve: (environment: Environment) => (current = environment),
    finder: {
      find: (): Promise<FoundEnvironment> =>
        Promise.resolve({
          resolved: new ResolvedEnvironment(current),
          revision: { label: 'main', commit: current.version ?? '', stale: false },
        }),
    },
  };
}

function hubWith(initial: Environment, maxEnvironmentBytes: number, alike = () => true) {
  const { serve, finder } = fakeFinder(initial);
  const hub = new WatchHub({
    finder,
    origin: 'test:watch',
    published: () => undefined,
    logger: silentLogger,
    maxEnvironmentBytes,
    servesAllAlike: alike,
  });
  return { hub, serve };
}

const collect = () => {
  const deliveries: Delivery[] = [];
  return { deliveries, watcher: { deliver: (delivery: Delivery) => void deliveries.push(delivery) } };
};

describe('WatchHub with environments', () => {
  it("sends the new version's body, the endpoint's own bytes, encoded once for every watcher", async () => {
    const { hub, serve } = hubWith(environmentAt('v1', { a: '1' }), 16_384);
    const one = collect();
    const two = collect();
    await hub.subscribe(REQUEST, 'v1', one.watcher);
    await hub.subscribe(REQUEST, 'v1', two.watcher);
    const next = environmentAt('v2', { a: '2' });
    serve(next);
    await hub.recheck();
    const [delivery] = one.deliveries;
    assert.equal(two.deliveries[0], delivery, 'the same delivery object for every watcher');
    const sent = sseData(delivery!.withEnvironment!.sse);
    assert.deepEqual(
      sent.environment,
      JSON.parse(new ResolvedEnvironment(next).bodyNow(undefined)!.toString()),
    );
    assert.deepEqual(sent.keys, ['a']);
  });

  it('sends keys only beyond the bound, with 0, and while a rollout holds the topic', async () => {
    const big = { a: 'x'.repeat(2000) };
    for (const [max, alike] of [
      [1000, true],
      [0, true],
      [16_384, false],
    ] as const) {
      const { hub, serve } = hubWith(environmentAt('v1', { a: '1' }), max, () => alike);
      const { deliveries, watcher } = collect();
      await hub.subscribe(REQUEST, 'v1', watcher);
      serve(environmentAt('v2', big));
      await hub.recheck();
      assert.equal(deliveries.length, 1);
      assert.equal(deliveries[0]!.withEnvironment, undefined, `max ${max}, alike ${alike}`);
    }
  });

  it('catches up a watcher further behind with the current body too, unless a rollout now holds it', async () => {
    let alike = true;
    const { hub, serve } = hubWith(environmentAt('v1', { a: '1' }), 16_384, () => alike);
    await hub.subscribe(REQUEST, undefined, collect().watcher);
    serve(environmentAt('v2', { a: '2' }));
    await hub.recheck();
    serve(environmentAt('v3', { a: '3' }));
    await hub.recheck();
    const behind = await hub.subscribe(REQUEST, 'v1', collect().watcher);
    const sent = sseData(behind.missed!.withEnvironment!.sse);
    assert.deepEqual(
      [sent.version, sent.keys, (sent.environment as Environment).version],
      ['v3', null, 'v3'],
    );
    const oneBehind = await hub.subscribe(REQUEST, 'v2', collect().watcher);
    assert.deepEqual(sseData(oneBehind.missed!.withEnvironment!.sse).keys, ['a']);
    alike = false;
    const held = await hub.subscribe(REQUEST, 'v2', collect().watcher);
    assert.equal(held.missed!.withEnvironment, undefined);
    alike = true;
    // A commit that changed no value: the last change (v2 → v3) is no longer what a GET answers (v4).
    serve(environmentAt('v4', { a: '3' }));
    await hub.recheck();
    const moved = await hub.subscribe(REQUEST, 'v2', collect().watcher);
    assert.deepEqual([moved.missed!.change.version, moved.missed!.withEnvironment], ['v3', undefined]);
  });
});
