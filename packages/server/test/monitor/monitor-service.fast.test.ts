// MonitorService on fakes (no git, no broker, no HTTP): what a push re-reads, publishes, leaves out and refuses.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { type Logger, type RefreshBusEvent, silentLogger } from '@confbus/core';
import { ConfigFileParser } from '../../src/environment/config-file-parser.js';
import { EnvironmentCaches } from '../../src/environment/environment-caches.js';
import { EnvironmentWorkers } from '../../src/environment/environment-workers.js';
import { ParsedFiles } from '../../src/environment/parsed-files.js';
import { MonitorService, type MonitorServiceOptions } from '../../src/monitor/monitor-service.js';
import { FakeClock } from '../fake-clock.js';
import { FakeConfigRepository } from '../repositories/fake-config-repository.js';
import { FakePublisher } from '../bus/fake-publisher.js';

// Small files only: they are parsed inline, and the workers never start a thread.
const workers = new EnvironmentWorkers();

function setUp(overrides: Partial<MonitorServiceOptions> = {}) {
  const repository = new FakeConfigRepository({ 'foo.yml': 'a: 1\n', 'bar.yml': 'a: 1\n' });
  const publisher = new FakePublisher();
  const recorded: Array<{ event: RefreshBusEvent; commit: string }> = [];
  const service = new MonitorService({
    repository,
    files: new ParsedFiles({
      repository,
      parser: new ConfigFileParser({ maxFileBytes: 64 * 1024, maxFileDocuments: 1000, workers }),
      caches: new EnvironmentCaches({ maxEntries: 100, maxBytes: 16 * 1024 * 1024 }),
    }),
    publisher,
    published: { published: (event, commit) => recorded.push({ event, commit }) },
    secrets: {},
    requireSignature: false,
    allowUnsigned: false,
    maxFiles: 10,
    logger: silentLogger,
    ...overrides,
  });
  return { repository, publisher, recorded, service };
}

const destinations = (publisher: FakePublisher) => publisher.published.map((e) => e.destinationService);

describe('MonitorService.handlePush (on a fake repository and publisher)', () => {
  it('re-reads Git, then publishes one event per service, recorded with the new commit', async () => {
    const { repository, publisher, recorded, service } = setUp();
    const commit = repository.push({ 'foo.yml': 'a: 2\n', 'bar.yml': 'a: 2\n' });
    const outcome = await service.handlePush({ host: 'github', paths: ['foo.yml', 'bar.yml'] });
    assert.deepEqual(outcome, { kind: 'published', services: ['foo', 'bar'] });
    assert.equal(repository.calls.refreshNow, 1);
    assert.deepEqual(destinations(publisher), ['foo:**', 'bar:**']);
    assert.deepEqual(
      recorded.map((r) => r.commit),
      [commit, commit],
    );
  });

  it('publishes nothing new for a repeated webhook of the same commit, and again for the next commit', async () => {
    const { repository, publisher, service } = setUp();
    repository.push({ 'foo.yml': 'a: 2\n' });
    await service.handlePush({ host: 'github', paths: ['foo.yml'] });
    await service.handlePush({ host: 'github', paths: ['foo.yml'] });
    assert.deepEqual(destinations(publisher), ['foo:**']);
    repository.push({ 'foo.yml': 'a: 3\n' });
    await service.handlePush({ host: 'github', paths: ['foo.yml'] });
    assert.deepEqual(destinations(publisher), ['foo:**', 'foo:**']);
  });

  it('answers an empty push without touching Git or the bus', async () => {
    const { repository, publisher, service } = setUp();
    assert.deepEqual(await service.handlePush({ host: 'simple', paths: [] }), {
      kind: 'published',
      services: [],
    });
    assert.equal(repository.calls.refreshNow, 0);
    assert.equal(publisher.attempts, 0);
  });

  it('refuses to publish when Git could not be fetched (clients would re-read the old state)', async () => {
    const { repository, publisher, service } = setUp();
    repository.push({ 'foo.yml': 'a: 2\n' });
    repository.upstreamDown = true;
    await assert.rejects(service.handlePush({ host: 'github', paths: ['foo.yml'] }), {
      status: 503,
      code: 'CONFBUS_UPSTREAM_UNAVAILABLE',
    });
    assert.equal(publisher.attempts, 0);
  });

  it('leaves out the services fed by a file that does not parse, and names the file', async () => {
    const { repository, publisher, service } = setUp();
    repository.push({ 'foo.yml': 'a: [unclosed\n', 'bar.yml': 'a: 2\n' });
    const outcome = await service.handlePush({ host: 'github', paths: ['foo.yml', 'bar.yml'] });
    assert.equal(outcome.kind, 'some-unparsable');
    assert.deepEqual(outcome.services, ['bar']);
    assert.deepEqual(outcome.kind === 'some-unparsable' ? outcome.rejected.map((r) => r.file) : [], [
      'foo.yml',
    ]);
    assert.deepEqual(destinations(publisher), ['bar:**']);
  });

  it('broadcasts one event to every service, without reading files, beyond max-files', async () => {
    const { repository, publisher, service } = setUp({ maxFiles: 2 });
    repository.push({ 'a.yml': 'x: 1\n', 'b.yml': 'x: 1\n', 'c.yml': 'x: 1\n' });
    const outcome = await service.handlePush({ host: 'github', paths: ['a.yml', 'b.yml', 'c.yml'] });
    assert.deepEqual(outcome, { kind: 'published', services: ['*'] });
    assert.equal(repository.calls.readFile, 0);
    assert.deepEqual(destinations(publisher), ['*:**']);
  });

  it('says the bus is disabled instead of pretending, after re-reading Git', async () => {
    const { repository, publisher, service } = setUp({ publisher: undefined });
    const commit = repository.push({ 'foo.yml': 'a: 2\n' });
    assert.deepEqual(await service.handlePush({ host: 'github', paths: ['foo.yml'] }), {
      kind: 'bus-disabled',
      commit,
      services: ['foo'],
    });
    assert.equal(publisher.attempts, 0);
  });

  it('reports a failed publication, forgets it so a redelivery publishes, and shares one in flight', async () => {
    let sharing: (() => void) | undefined;
    const bothAtPublication = new Promise<void>((resolve) => (sharing = resolve));
    let refreshLines = 0;
    const logger: Logger = {
      ...silentLogger,
      info: (_fields, message) => {
        if (message?.startsWith('Refresh for:') && ++refreshLines === 2) sharing?.();
      },
      child: () => logger,
    };
    const { repository, publisher, service } = setUp({ logger });
    repository.push({ 'foo.yml': 'a: 2\n' });
    publisher.failing = true;
    publisher.hold();
    const first = service.handlePush({ host: 'github', paths: ['foo.yml'] });
    const second = service.handlePush({ host: 'github', paths: ['foo.yml'] });
    await bothAtPublication;
    publisher.release();
    for (const outcome of await Promise.allSettled([first, second])) {
      assert.equal(outcome.status, 'rejected');
      assert.match(String((outcome as PromiseRejectedResult).reason.message), /foo.*broker gone/);
    }
    assert.equal(publisher.attempts, 1, 'the second webhook shared the publication in flight');

    publisher.failing = false;
    await service.handlePush({ host: 'github', paths: ['foo.yml'] });
    assert.deepEqual(destinations(publisher), ['foo:**']);
  });
});

describe('MonitorService.verifySignature', () => {
  const giteeToken = (secret: string, timestamp: number) =>
    createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');

  it("checks Gitee's signed timestamp against the service's clock", () => {
    const clock = new FakeClock();
    const { service } = setUp({ secrets: { gitee: 's3cret' }, clock });
    const signedAt = clock.now();
    const headers = {
      'x-gitee-token': giteeToken('s3cret', signedAt),
      'x-gitee-timestamp': String(signedAt),
    };
    service.verifySignature('gitee', headers, Buffer.from('{}'));
    clock.advance(2 * 3_600_000);
    assert.throws(() => service.verifySignature('gitee', headers, Buffer.from('{}')), {
      status: 401,
      message: /more than an hour away/,
    });
  });

  it('refuses unsigned requests when signatures are required or another host has a secret', () => {
    assert.throws(
      () => setUp({ requireSignature: true }).service.verifySignature('simple', {}, Buffer.from('{}')),
      { status: 401, message: /must be signed/ },
    );
    const { service } = setUp({ secrets: { github: 'x' } });
    assert.throws(() => service.verifySignature('simple', {}, Buffer.from('{}')), {
      status: 401,
      message: /unsigned 'simple' requests are refused/,
    });
    setUp({ secrets: { github: 'x' }, allowUnsigned: true }).service.verifySignature(
      'simple',
      {},
      Buffer.from('{}'),
    );
  });
});
