// When the bus refuses a refresh, /monitor must say so and must not remember the service as announced:
// the Git host's redelivery of the webhook has to publish it. Real git mirror, a publisher that fails on demand.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Logger, type RefreshBusEvent, createRefreshEvent, silentLogger } from '@confbus/core';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import Fastify, { type FastifyInstance } from 'fastify';
import { RefreshTracker } from '../../src/bus/refresh-tracker.js';
import { ConfigFileParser } from '../../src/environment/config-file-parser.js';
import { EnvironmentCaches } from '../../src/environment/environment-caches.js';
import { EnvironmentWorkers } from '../../src/environment/environment-workers.js';
import { ParsedFiles } from '../../src/environment/parsed-files.js';
import { GitMirror } from '../../src/git/index.js';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { registerMonitorRoutes } from '../../src/monitor/monitor-controller.js';
import { MonitorService } from '../../src/monitor/monitor-service.js';

const quiet = silentLogger;

/** Counts the route's "Refresh for: <service>" lines: each request logs one per service before it publishes. */
class RefreshLines implements Logger {
  readonly services: string[] = [];
  debug(): void {}
  warn(): void {}
  error(): void {}
  info(fields: object, message?: string): void {
    if (message?.startsWith('Refresh for'))
      this.services.push(String((fields as { service?: unknown }).service));
  }
  child(): Logger {
    return this;
  }
  count(service: string): number {
    return this.services.filter((s) => s === service).length;
  }
}

/** Publishes (records) or fails, and can hold publications until released, to line up concurrent webhooks. */
class ControlledPublisher {
  failing = false;
  readonly published: RefreshBusEvent[] = [];
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  attempts = 0;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = undefined;
  }

  async publishRefresh(destination?: string): Promise<RefreshBusEvent> {
    this.attempts++;
    await this.gate;
    if (this.failing)
      throw new Error('publishing RefreshRemoteApplicationEvent to the bus failed: broker gone');
    const event = createRefreshEvent('configserver:0:test', destination);
    this.published.push(event);
    return event;
  }
}

describe('POST /monitor when publishing fails', () => {
  const workers = new EnvironmentWorkers();
  let remote: GitRemote;
  let work: { path: string; remove(): Promise<void> };
  let mirror: GitMirror;
  let app: FastifyInstance;
  let tracker: RefreshTracker;
  const bus = new ControlledPublisher();
  const lines = new RefreshLines();

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'value: 0\n', 'bar.yml': 'value: 0\n' });
    work = await makeTempDir('confbus-monitor-');
    mirror = new GitMirror({
      uri: remote.url,
      basedir: `${work.path}/mirror`,
      defaultLabel: 'master',
      refreshRateSeconds: 3600,
      timeoutSeconds: 30,
      logger: quiet,
    });
    await mirror.start();
    tracker = new RefreshTracker(quiet);
    app = Fastify();
    installErrorHandling(app, 2048);
    const service = new MonitorService({
      repository: mirror,
      files: new ParsedFiles({
        repository: mirror,
        parser: new ConfigFileParser({
          maxFileBytes: 1024 * 1024,
          maxFileDocuments: 1000,
          workers,
        }),
        caches: new EnvironmentCaches({ maxEntries: 100, maxBytes: 16 * 1024 * 1024 }),
      }),
      publisher: bus,
      published: tracker,
      secrets: {},
      requireSignature: false,
      allowUnsigned: false,
      maxFiles: 100,
      logger: lines,
    });
    registerMonitorRoutes(app, { service, tracker, maxAcksPerEvent: 10_000 });
    await app.ready();
  });

  after(async () => {
    await workers.close();
    await app?.close();
    tracker?.close();
    await mirror?.close();
    await work?.remove();
    await remote?.remove();
  });

  const monitor = async (path: string[]) => {
    const response = await app.inject({
      method: 'POST',
      url: '/monitor',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ path }),
    });
    return { status: response.statusCode, body: response.json() as unknown };
  };

  it('answers 503 naming the services not announced, and a redelivery publishes them', async () => {
    await remote.commit({ 'foo.yml': 'value: 1\n', 'bar.yml': 'value: 1\n' });
    bus.failing = true;
    const failed = await monitor(['foo.yml', 'bar.yml']);
    assert.equal(failed.status, 503, JSON.stringify(failed.body));
    const body = failed.body as { code: string; message: string };
    assert.equal(body.code, 'CONFBUS_BUS_PUBLISH_FAILED');
    assert.match(body.message, /foo/);
    assert.match(body.message, /broker gone/);
    assert.equal(bus.published.length, 0);

    bus.failing = false;
    const retried = await monitor(['foo.yml', 'bar.yml']);
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.deepEqual(
      bus.published.map((e) => e.destinationService),
      ['foo:**', 'bar:**'],
    );
  });

  it('a concurrent webhook waits for the publication in flight and shares its failure', async () => {
    await remote.commit({ 'foo.yml': 'value: 2\n' });
    const before = bus.published.length;
    bus.failing = true;
    bus.hold();
    const attempts = bus.attempts;
    const first = monitor(['foo.yml']);
    // The second request arrives while the first one's publication is pending.
    const deadline = Date.now() + 30_000;
    while (bus.attempts === attempts) {
      if (Date.now() > deadline) throw new Error('the first webhook never tried to publish');
      await new Promise((r) => setTimeout(r, 10));
    }
    const announcedBefore = lines.count('foo');
    const second = monitor(['foo.yml']);
    // Wait until the second request has reached the publication step (it logs the service first)...
    while (lines.count('foo') === announcedBefore) {
      if (Date.now() > deadline) throw new Error('the second webhook never reached the publication step');
      await new Promise((r) => setTimeout(r, 10));
    }
    // ...where it must await the first one's publication rather than start its own.
    assert.equal(bus.attempts, attempts + 1, 'the second webhook published again instead of sharing');
    bus.release();
    const [a, b] = await Promise.all([first, second]);
    assert.equal(bus.attempts, attempts + 1, 'the second webhook published again instead of sharing');
    assert.equal(a.status, 503);
    assert.equal(b.status, 503, 'the second webhook did not claim success for a refresh that was never sent');
    bus.failing = false;
    const retried = await monitor(['foo.yml']);
    assert.equal(retried.status, 200);
    assert.deepEqual(
      bus.published.slice(before).map((e) => e.destinationService),
      ['foo:**'],
    );
  });

  it("sends every service's event without waiting for the broker to confirm the previous one", async () => {
    await remote.commit({ 'foo.yml': 'value: 3\n', 'bar.yml': 'value: 3\n' });
    const before = bus.published.length;
    bus.hold();
    const attempts = bus.attempts;
    const response = monitor(['foo.yml', 'bar.yml']);
    // Both publications start while the first is still unconfirmed (held).
    const deadline = Date.now() + 30_000;
    while (bus.attempts < attempts + 2) {
      if (Date.now() > deadline) {
        bus.release();
        throw new Error(
          `only ${bus.attempts - attempts} of 2 publications started while the first was pending`,
        );
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    bus.release();
    const result = await response;
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.deepEqual(result.body, ['foo', 'bar']);
    assert.deepEqual(
      bus.published.slice(before).map((e) => e.destinationService),
      ['foo:**', 'bar:**'],
    );
  });
});
