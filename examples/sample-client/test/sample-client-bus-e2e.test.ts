// The bus end to end: a git remote, `confbus server`, three `confbus sample-client` processes with
// the bus switched on by settings only, and a real RabbitMQ (this file's own vhost).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BusNode } from '@confbus/bus';
import { amqpBusMember } from '@confbus/testkit/bus-member';
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
import { createTestRabbitUser, type TestRabbitUser } from '@confbus/testkit/rabbit-user';
import {
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
  /**
   * Logs in as a RabbitMQ user of its own, so the catch-up test can keep exactly this client off the broker
   * (permissions cleared: its reconnects are refused) while an event goes out, and let it back in on cue.
   */
  let real2: ConfbusProcess;
  let real2User: TestRabbitUser;
  let observer: BusNode;
  const acks: AckBusEvent[] = [];

  const startClient = (profile: string, credentials = { username: RABBIT_USER, password: RABBIT_PASSWORD }) =>
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
        '--confbus.bus.reconnect.initial-interval=500',
        '--confbus.bus.reconnect.max-interval=1000',
        // "Received remote refresh request." is DEBUG: a refresh's one INFO line is "Keys refreshed [...]".
        '--logging.level.root=debug',
      ],
      // The password comes through the environment, as it would in production.
      { SPRING_RABBITMQ_USERNAME: credentials.username, SPRING_RABBITMQ_PASSWORD: credentials.password },
      { cwd: temp.path, timeoutMs: 90_000 },
    );

  before(async () => {
    vhost = await createTestVhost();
    real2User = await createTestRabbitUser(vhost.name);
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({
      'sample.yml': yaml('first'),
      'sample-dev.yml': 'group:\n  profile: dev\n',
      'sample-real.yml': 'group:\n  profile: real\n',
    });
    server = await startConfbusServer({ gitUri: remote.url, basedir: `${temp.path}/mirror`, cwd: temp.path });
    [dev, real1, real2] = await Promise.all([
      startClient('dev'),
      startClient('real'),
      startClient('real', real2User),
    ]);
    // A bare bus member that records the acks the clients send.
    observer = amqpBusMember(vhost.name, {
      busId: 'observer:0:test',
      reconnectDelayMs: { min: 200, max: 1000 },
    });
    observer.on('ack', (ack) => acks.push(ack));
    await observer.start();
    assert.ok(observer.connected);
  });
  after(async () => {
    await observer?.close();
    await stopAllNodeProcesses();
    await real2User?.remove().catch(() => undefined);
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

  it('a client kept off the broker while an event goes out catches up on the version it missed', async () => {
    const busStatus = async (client: ConfbusProcess) =>
      ((await getJson(`${client.url}/actuator/health`)).body as { components: { bus: { status: string } } })
        .components.bus.status;
    const mark = real2.process.lines.length;
    // Cleared permissions make the broker refuse real2's reconnects until they are restored: the event below
    // is sent while real2 is certainly away, however fast or slow this machine is.
    await real2User.revoke();
    assert.equal(await real2User.closeConnections(), 1);
    await waitFor('real2 to see its bus connection go', async () =>
      (await busStatus(real2)) === 'DOWN' ? true : undefined,
    );

    const fifthSha = await remote.commit({ 'sample.yml': yaml('fifth') });
    const response = await postJson(`${dev.url}/actuator/busrefresh`);
    assert.equal(response.status, 204);
    await waitForComment(dev, 'fifth');
    await waitForComment(real1, 'fifth');
    // The event went out (real1 acted on it) while real2 had no connection, and so no queue (it is exclusive).
    assert.equal(
      await real2User.countConnections(),
      0,
      'real2 got back in while its permissions were cleared',
    );
    assert.equal(await busStatus(real2), 'DOWN');
    assert.equal(await comment(real2, '/dynamic'), 'fourth');

    await real2User.restore();
    await waitForComment(real2, 'fifth');
    // The new values are served before the catch-up's log line has crossed the pipe, so wait for the line.
    await waitFor("real2's catch-up log line naming the version it missed", () =>
      messages(real2).some(
        (m) =>
          /^Bus reconnected: the config server moved from version [0-9a-f]{40} to [0-9a-f]{40}/.test(m) &&
          m.includes(`to ${fifthSha}`),
      )
        ? true
        : undefined,
    );
    assert.ok(
      real2.process.lines.slice(mark).some((line) => line.includes('bus reconnected')),
      'real2 reconnected by itself',
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
