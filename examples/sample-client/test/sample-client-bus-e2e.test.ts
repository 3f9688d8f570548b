// The bus end to end: a git remote, `confbus server`, three `confbus sample-client` processes with
// the bus switched on by settings only, and a real RabbitMQ (this file's own vhost).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BusNode } from '@confbus/bus';
import type { AckBusEvent } from '@confbus/core';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  getJson,
  postJson,
  startConfbusServer,
  startSampleClientProcess,
  waitFor,
  type ConfbusProcess,
} from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import {
  closeVhostConnections,
  createTestVhost,
  RABBIT_HOST,
  RABBIT_PASSWORD,
  RABBIT_PORT,
  RABBIT_USER,
  type TestVhost,
} from '@confbus/testkit/rabbit-vhost';
import { makeTempDir } from '@confbus/testkit/temp-dir';

/** The pino `msg` of each JSON log line of a process. */
function messages(client: ConfbusProcess): string[] {
  return client.process.lines.flatMap((line) => {
    try {
      const msg = (JSON.parse(line) as { msg?: unknown }).msg;
      return typeof msg === 'string' ? [msg] : [];
    } catch {
      return [];
    }
  });
}

const yaml = (comment: string) => `group:\n  profile: base\n  comment: ${comment}\n`;

describe('sample clients on the bus', () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let server: ConfbusProcess;
  let dev: ConfbusProcess;
  let real1: ConfbusProcess;
  /** Slow to reconnect, so it reliably misses an event sent while it is away. */
  let real2: ConfbusProcess;
  let observer: BusNode;
  const acks: AckBusEvent[] = [];

  const startClient = (profile: string, reconnectMs: number) =>
    startSampleClientProcess(
      [
        '--server.port=0',
        '--spring.application.name=sample',
        `--spring.profiles.active=${profile}`,
        `--spring.cloud.config.uri=${server.url}`,
        '--spring.cloud.bus.enabled=true',
        `--spring.rabbitmq.host=${RABBIT_HOST}`,
        `--spring.rabbitmq.port=${RABBIT_PORT}`,
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
        `--confbus.bus.reconnect.initial-interval=${reconnectMs}`,
        `--confbus.bus.reconnect.max-interval=${reconnectMs * 2}`,
      ],
      // The password comes through the environment, as it would in production.
      { SPRING_RABBITMQ_USERNAME: RABBIT_USER, SPRING_RABBITMQ_PASSWORD: RABBIT_PASSWORD },
      { cwd: temp.path, timeoutMs: 90_000 },
    );

  before(async () => {
    vhost = await createTestVhost();
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({
      'sample.yml': yaml('first'),
      'sample-dev.yml': 'group:\n  profile: dev\n',
      'sample-real.yml': 'group:\n  profile: real\n',
    });
    server = await startConfbusServer({ gitUri: remote.url, basedir: `${temp.path}/mirror`, cwd: temp.path });
    [dev, real1, real2] = await Promise.all([
      startClient('dev', 500),
      startClient('real', 500),
      startClient('real', 15_000),
    ]);
    // A bare bus member that records the acks the clients send.
    observer = new BusNode({
      addresses: [`${RABBIT_HOST}:${RABBIT_PORT}`],
      username: RABBIT_USER,
      password: RABBIT_PASSWORD,
      vhost: vhost.name,
      destination: 'springCloudBus',
      busId: 'observer:0:test',
      ackEnabled: false,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      reconnectDelayMs: { min: 200, max: 1000 },
    });
    observer.on('ack', (ack) => acks.push(ack));
    await observer.start();
    assert.ok(observer.connected);
  });
  after(async () => {
    await observer?.close();
    await stopAllNodeProcesses();
    await vhost?.remove();
    await remote?.remove();
    await temp?.remove();
  });

  const comment = async (client: ConfbusProcess, path: '/static' | '/dynamic') =>
    ((await getJson(`${client.url}${path}`)).body as { comment: string }).comment;

  const waitForComment = (client: ConfbusProcess, expected: string) =>
    waitFor(`${client.url}/dynamic to show comment ${expected}`, async () =>
      (await comment(client, '/dynamic')) === expected ? true : undefined,
    );

  it('one POST /actuator/busrefresh refreshes every client; /static stays; refreshed nodes ack', async () => {
    const health = (await getJson(`${dev.url}/actuator/health`)).body as {
      components: { bus: { status: string; details: { busId: string } } };
    };
    assert.equal(health.components.bus.status, 'UP');
    assert.match(health.components.bus.details.busId, new RegExp(`^sample:dev:${dev.port}:[0-9a-f]{32}$`));

    const secondSha = await remote.commit({ 'sample.yml': yaml('second') });
    const response = await postJson(`${dev.url}/actuator/busrefresh`);
    assert.equal(response.status, 204);
    for (const client of [dev, real1, real2]) await waitForComment(client, 'second');
    for (const client of [dev, real1, real2]) assert.equal(await comment(client, '/static'), 'first');

    // Spring's log lines on a node refreshed through the bus.
    const logged = messages(real1);
    assert.ok(logged.includes('Received remote refresh request.'), logged.join('\n'));
    assert.ok(
      logged.some(
        (m) => /^Keys refreshed \[.*config\.client\.version.*\]$/.test(m) && m.includes('group.comment'),
      ),
      logged.join('\n'),
    );
    // The two other nodes ack (the origin handled its own request locally).
    const realAcks = await waitFor('acks from both real clients', () => {
      const found = acks.filter((ack) => ack.originService.startsWith('sample:real:'));
      return found.length >= 2 ? found : undefined;
    });
    assert.equal(new Set(realAcks.map((ack) => ack.ackId)).size, 1);
    assert.ok(realAcks.every((ack) => ack.ackDestinationService === '**'));
    // confbus's extra: the version each node serves after the refresh.
    assert.ok(realAcks.every((ack) => ack.configVersion === secondSha));
    assert.ok(!acks.some((ack) => ack.originService.startsWith('sample:dev:')));
  });

  it('a destination (/actuator/busrefresh/sample:real:**) refreshes only the matching clients', async () => {
    await remote.commit({ 'sample.yml': yaml('third') });
    const response = await postJson(`${dev.url}/actuator/busrefresh/sample:real:**`);
    assert.equal(response.status, 204);
    await waitForComment(real1, 'third');
    await waitForComment(real2, 'third');
    // The origin is not addressed: it handles its own request locally and says so, as Spring does.
    assert.ok(messages(dev).includes('Refresh not performed, the event was targeting sample:real:**'));
    assert.equal(await comment(dev, '/dynamic'), 'second');
  });

  it('answers the Spring Cloud Bus 2.x name POST /actuator/bus-refresh too', async () => {
    await remote.commit({ 'sample.yml': yaml('fourth') });
    const response = await postJson(`${real1.url}/actuator/bus-refresh`);
    assert.equal(response.status, 204);
    for (const client of [dev, real1, real2]) await waitForComment(client, 'fourth');
  });

  it('a client whose broker connection was closed catches up on the version it missed', async () => {
    const reconnectedBefore = (client: ConfbusProcess) =>
      messages(client).filter((m) => m.startsWith('bus reconnected')).length;
    const before = {
      dev: reconnectedBefore(dev),
      real1: reconnectedBefore(real1),
      real2: reconnectedBefore(real2),
    };
    assert.ok((await closeVhostConnections(vhost.name)) >= 3);
    // The fast ones are back within a second; real2 waits 15 s before its first reconnect attempt.
    await waitFor('dev and real1 to reconnect', () =>
      reconnectedBefore(dev) > before.dev && reconnectedBefore(real1) > before.real1 ? true : undefined,
    );
    await waitFor('the observer to reconnect', () => observer.connected || undefined);

    await remote.commit({ 'sample.yml': yaml('fifth') });
    const response = await postJson(`${dev.url}/actuator/busrefresh`);
    assert.equal(response.status, 204);
    await waitForComment(dev, 'fifth');
    await waitForComment(real1, 'fifth');
    assert.equal(
      reconnectedBefore(real2),
      before.real2,
      'real2 reconnected before the event was sent, so this run does not exercise the catch-up',
    );
    assert.equal(await comment(real2, '/dynamic'), 'fourth');

    await waitForComment(real2, 'fifth');
    const logged = messages(real2);
    assert.ok(
      logged.some((m) =>
        /^Bus reconnected: the config server moved from version [0-9a-f]{40} to [0-9a-f]{40}/.test(m),
      ),
      logged.join('\n'),
    );
    assert.equal(await comment(real2, '/static'), 'first');
    // While the bus was down, its health said so; now it is back up.
    const health = (await getJson(`${real2.url}/actuator/health`)).body as {
      status: string;
      components: { bus: { status: string } };
    };
    assert.equal(health.status, 'UP');
    assert.equal(health.components.bus.status, 'UP');
  });
});
