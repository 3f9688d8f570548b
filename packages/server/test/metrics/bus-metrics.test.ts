// The bus and process metrics of GET /actuator/prometheus: a real server on its own RabbitMQ vhost, events put
// on the wire by a raw amqplib tap, the counts read back from the exposition text.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { metricSample as sample } from '@confbus/testkit/prometheus-text';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

describe('bus and process metrics', () => {
  let remote: GitRemote;
  let vhost: TestVhost;
  let server: TestServer;
  let tap: RawBusTap;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'a: 1\n' });
    vhost = await createTestVhost();
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.bus.enabled': 'true',
      'spring.rabbitmq.host': '127.0.0.1',
      'spring.rabbitmq.virtual-host': vhost.name,
    });
    tap = await openRawBusTap(vhost.amqpUrl);
  });
  after(async () => {
    await tap?.close();
    await server?.stop();
    await vhost?.remove();
    await remote?.remove();
  });

  const scrape = async () => (await server.get('/actuator/prometheus')).body;

  /** Scrapes until `series` has `value` (the broker delivers asynchronously), then returns the text. */
  async function scrapeUntil(series: string, value: number): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const text = await scrape();
      if (sample(text, series) === value) return text;
      if (attempt > 250) assert.fail(`${series} never reached ${value}; last scrape:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('exposes the build, Node process and bus connection state', async () => {
    const text = await scrape();
    assert.match(text, /^confbus_build_info\{version="\d+\.\d+\.\d+[^"]*",node_version="v20\.[^"]+"\} 1$/m);
    assert.ok((sample(text, 'process_cpu_user_seconds_total') ?? 0) > 0, 'process CPU time is exposed');
    assert.match(text, /^nodejs_eventloop_lag_seconds \d/m);
    assert.equal(sample(text, 'confbus_bus_connected'), 1);
  });

  it('counts events published, received by type, dropped and handled', async () => {
    const published = await server.server.bus!.publishRefresh('foo:**');
    await tap.drain();
    assert.ok(tap.messages.some((m) => m.body.id === published.id));
    await tap.publish({
      type: 'RefreshRemoteApplicationEvent',
      timestamp: Date.now(),
      originService: 'other:8080:abc',
      destinationService: '**',
      id: '4d1b3a8e-6a6e-4d7e-9f0e-0a1b2c3d4e5f',
    });
    await tap.publish({ type: 'RefreshRemoteApplicationEvent', id: 42 }); // not a valid event

    const text = await scrapeUntil('confbus_bus_messages_dropped_total', 1);
    assert.equal(sample(text, 'confbus_bus_events_published_total{type="RefreshRemoteApplicationEvent"}'), 1);
    // Its own refresh comes back from the exchange too (and is ignored as its own); the other one is handled.
    assert.equal(sample(text, 'confbus_bus_events_received_total{type="RefreshRemoteApplicationEvent"}'), 2);
    assert.equal(sample(text, 'confbus_bus_refreshes_handled_total'), 1);
    assert.equal(sample(text, 'confbus_bus_publish_failures_total'), 0);
  });
});
