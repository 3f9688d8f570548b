// The watch endpoint on a real Git mirror with no bus: a push announced to /monitor reaches an open event
// stream and a waiting long poll with the new version and the changed keys; a watcher that comes back with
// an older version catches up at once; acks land in the refresh events; bad input gets 400 JSON naming it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openEventStream } from '@confbus/testkit/event-stream';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { waitFor } from '@confbus/testkit/wait-for';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const SSE = { accept: 'text/event-stream' };

interface Change {
  event: string;
  version: string;
  from: string | null;
  keys: string[] | null;
}

describe('GET /watch without a bus', () => {
  let remote: GitRemote;
  let server: TestServer;
  let first: string;

  before(async () => {
    remote = await createGitRemote();
    first = await remote.commit({ 'foo.yml': 'greeting: hello\nsize: 1\n', 'bar.yml': 'other: 1\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': '3600',
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'false',
      'confbus.watch.upstream-check-interval': '0',
    });
  });
  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  const monitor = (path: string) =>
    fetch(`${server.base}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path }),
    });

  it('pushes the new version and the changed keys to a stream and a long poll', async () => {
    const stream = await openEventStream(`${server.base}/-/watch/foo/default?version=${first}`, SSE);
    const poll = fetch(`${server.base}/-/watch/foo/default?version=${first}&wait=20s`);
    try {
      await waitFor('two watchers', () => server.server.watch?.hub.watchers === 2);
      const second = await remote.commit({ 'foo.yml': 'greeting: hi\nsize: 1\n' });
      const answer = await monitor('foo.yml');
      assert.equal(answer.status, 200, await answer.text());
      const change = await waitFor('the change', () => stream.find<Change>('change'));
      assert.equal(change.version, second);
      assert.equal(change.from, first);
      assert.deepEqual(change.keys, ['greeting']);
      assert.equal(stream.events.find((e) => e.event === 'change')?.id, second, 'id: is the version');
      const polled = await poll;
      assert.equal(polled.status, 200);
      assert.deepEqual(await polled.json(), change);
    } finally {
      stream.close();
    }
  });

  it('sends the new environment, as the GET answers it, to the watchers that asked for it', async () => {
    const before = ((await server.get('/foo/default')).json() as { version: string }).version;
    const url = `${server.base}/-/watch/foo/default?version=${before}`;
    const asked = await openEventStream(`${url}&include=environment`, SSE);
    const plain = await openEventStream(url, SSE);
    const poll = fetch(`${url}&include=environment&wait=20s`);
    try {
      await waitFor('three watchers', () => server.server.watch?.hub.watchers === 3);
      const version = await remote.commit({ 'foo.yml': 'greeting: carried\nsize: 1\n' });
      assert.equal((await monitor('foo.yml')).status, 200);
      const change = await waitFor('the change', () =>
        asked.find<Change & { environment?: { version: string } }>('change'),
      );
      const got = (await server.get('/foo/default', { accept: 'application/json' })).json() as object;
      assert.equal(change.environment?.version, version);
      assert.deepEqual(change.environment, got, "the environment endpoint's answer");
      assert.deepEqual(change.keys, ['greeting']);
      const told = await waitFor('the change', () => plain.find<Record<string, unknown>>('change'));
      assert.equal('environment' in told, false, 'a watcher that did not ask is told the keys');
      const polled = await poll;
      assert.deepEqual(await polled.json(), change);
    } finally {
      asked.close();
      plain.close();
    }
  });

  it('tells a watcher that comes back with an older version at once; answers 304 when the wait ends', async () => {
    const current = ((await server.get('/foo/default')).json() as { version: string }).version;
    const behind = await fetch(`${server.base}/-/watch/foo/default?version=${first}&wait=20s`);
    assert.equal(behind.status, 200);
    const caughtUp = (await behind.json()) as Change;
    assert.equal(caughtUp.version, current);
    const idle = await fetch(`${server.base}/-/watch/foo/default?version=${current}&wait=50ms`);
    assert.equal(idle.status, 304);
  });

  it('leaves out watchers whose configuration a commit did not change', async () => {
    const before = ((await server.get('/foo/default')).json() as { version: string }).version;
    const stream = await openEventStream(`${server.base}/-/watch/foo/default?version=${before}`, SSE);
    const other = await openEventStream(`${server.base}/-/watch/bar/default`, SSE);
    try {
      await waitFor('two watchers', () => server.server.watch?.hub.watchers === 2);
      await remote.commit({ 'bar.yml': 'other: 2\n' });
      assert.equal((await monitor('bar.yml')).status, 200);
      const change = await waitFor('the change', () => other.find<Change>('change'));
      assert.deepEqual(change.keys, ['other']);
      assert.equal(stream.find('change'), undefined, 'foo did not change');
    } finally {
      stream.close();
      other.close();
    }
  });

  it('records acks against the change in /actuator/refresh-events', async () => {
    const stream = await openEventStream(`${server.base}/-/watch/foo/default`, SSE);
    try {
      await waitFor('a watcher', () => server.server.watch?.hub.watchers === 1);
      const version = await remote.commit({ 'foo.yml': 'greeting: ack me\n' });
      assert.equal((await monitor('foo.yml')).status, 200);
      const change = await waitFor('the change', () => stream.find<Change>('change'));
      const ack = await fetch(`${server.base}/-/watch/acks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: change.event, service: 'foo:default:8080:abc', version }),
      });
      assert.equal(ack.status, 202);
      // An instance whose own schema refused the change says so, as a bus ack would.
      const rejected = await fetch(`${server.base}/-/watch/acks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          event: change.event,
          service: 'foo:default:8081:def',
          outcome: 'rejected',
          reason: 'no',
        }),
      });
      assert.equal(rejected.status, 202);
      const events = (await server.get('/actuator/refresh-events')).json() as Array<{
        id: string;
        commit: string;
        rejectedAcks: number;
        acks: Array<{ service: string; configVersion?: string; outcome: string; reason?: string }>;
      }>;
      const recorded = events.find((e) => e.id === change.event);
      assert.equal(recorded?.commit, version);
      assert.deepEqual(
        recorded?.acks.map((a) => [a.service, a.configVersion, a.outcome, a.reason]),
        [
          ['foo:default:8080:abc', version, 'applied', undefined],
          ['foo:default:8081:def', undefined, 'rejected', 'no'],
        ],
      );
      assert.equal(recorded?.rejectedAcks, 1);
    } finally {
      stream.close();
    }
  });

  it('answers bad input with 400 JSON naming what was wrong', async () => {
    const cases: Array<[string, RequestInit, RegExp]> = [
      ['/-/watch/foo/default?wait=2h', {}, /wait must be a duration/],
      ['/-/watch/foo/default?wait=soon', {}, /wait must be a duration/],
      ['/-/watch/foo/default?version=a%0Ab', {}, /version/],
      ['/-/watch/foo/default', { headers: { ...SSE, 'last-event-id': 'x'.repeat(200) } }, /Last-Event-ID/],
      [
        '/-/watch/acks',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"event":"nope","service":"a"}',
        },
        /ack\.event/,
      ],
      [
        '/-/watch/acks',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ event: crypto.randomUUID() }),
        },
        /ack\.service/,
      ],
    ];
    for (const [path, init, message] of cases) {
      const response = await fetch(`${server.base}${path}`, init);
      const body = (await response.json()) as { code: string; message: string };
      assert.equal(response.status, 400, path);
      assert.equal(body.code, 'CONFBUS_WATCH_BAD_REQUEST', path);
      assert.match(body.message, message, path);
    }
    const invalid = await fetch(`${server.base}/-/watch/..%2Ffoo/default`);
    assert.equal(invalid.status, 400);
  });

  it('serves an application named watch: its URLs are environment requests, the stream lives under /-/', async () => {
    await remote.commit({ 'watch.yml': 'greeting: from the watch app\n' });
    await monitor('watch.yml');
    const { version } = (await server.get('/watch/default')).json() as { version: string };
    for (const path of ['/watch/default', `/watch/default/${version}`, '/watch/dev,default/master']) {
      const answer = await server.get(path);
      assert.equal(answer.status, 200, `${path}: ${answer.body}`);
      const environment = answer.json() as { name: string; propertySources: Array<{ source: object }> };
      assert.equal(environment.name, 'watch', path);
      assert.ok(
        environment.propertySources.some((s) => JSON.stringify(s.source).includes('from the watch app')),
        path,
      );
    }
    const stream = await openEventStream(`${server.base}/-/watch/watch/default`, SSE);
    try {
      await waitFor('a watcher of the watch app', () => server.server.watch?.hub.topics === 1);
    } finally {
      stream.close();
    }
  });

  it('sends keys only, to be re-fetched, while a staged rollout picks commits per instance', async () => {
    const from = ((await server.get('/baz/default')).json() as { version: string }).version;
    const to = await remote.commit({ 'baz.yml': 'greeting: rolled\n' });
    await monitor('baz.yml');
    const started = await fetch(`${server.base}/-/rollouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ application: 'baz', from, to, waves: '50%,100%' }),
    });
    assert.equal(started.status, 201, await started.text());
    const stream = await openEventStream(`${server.base}/-/watch/baz/default?include=environment`, SSE);
    try {
      await waitFor('a watcher of baz', () => server.server.watch?.hub.topics === 1);
      await remote.commit({ 'baz.yml': 'greeting: past the rollout\n' });
      assert.equal((await monitor('baz.yml')).status, 200);
      const change = await waitFor('the change', () => stream.find<Record<string, unknown>>('change'));
      assert.deepEqual(change.keys, ['greeting']);
      assert.equal('environment' in change, false, 'each instance re-fetches its own commit');
    } finally {
      stream.close();
    }
  });
});
