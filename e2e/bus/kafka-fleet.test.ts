// The bus over Kafka end to end: `confbus server` and three `confbus sample-client` processes on a real Kafka
// broker (KRaft, from Maven Central's jars). busrefresh, a webhook to the fleet with the server's ack tracking,
// and a broker restart during which a push happens (the clients catch up from the server once back).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BusNode } from '@confbus/bus';
import type { AckBusEvent } from '@confbus/core';
import { kafkaBusMember } from '@confbus/testkit/bus-member';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  type ConfbusProcess,
  getJson,
  postJson,
  startConfbusServer,
  startSampleClientProcess,
  waitFor,
} from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { kafkaAvailability, startKafkaBroker, type TestKafkaBroker } from '@confbus/testkit/kafka-broker';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const availability = kafkaAvailability();
const yaml = (comment: string) => `group:\n  profile: base\n  comment: ${comment}\n`;

interface TrackedRefresh {
  destination: string;
  commit: string;
  acks: { service: string; configVersion?: string }[];
}

describe('the bus over Kafka', { skip: availability.ok ? false : `not run: ${availability.reason}` }, () => {
  let broker: TestKafkaBroker;
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let server: ConfbusProcess;
  let clients: ConfbusProcess[];
  let observer: BusNode;
  const acks: AckBusEvent[] = [];

  const busArgs = () => [
    '--spring.cloud.bus.enabled=true',
    `--spring.kafka.bootstrap-servers=${broker.bootstrap}`,
  ];

  const startClient = (profile: string) =>
    startSampleClientProcess(
      [
        '--server.port=0',
        '--spring.application.name=sample',
        `--spring.profiles.active=${profile}`,
        `--spring.cloud.config.uri=${server.url}`,
        ...busArgs(),
        '--confbus.bus.reconnect.initial-interval=200',
        '--confbus.bus.reconnect.max-interval=1000',
      ],
      {},
      { cwd: temp.path, timeoutMs: 90_000 },
    );

  const comment = async (client: ConfbusProcess) => {
    const { body } = await getJson(`${client.url}/dynamic`);
    return (body as { comment?: unknown }).comment;
  };
  const waitForComment = (client: ConfbusProcess, expected: string, timeoutMs?: number) =>
    waitFor(
      `${client.url}/dynamic to show comment ${expected}`,
      async () => ((await comment(client)) === expected ? true : undefined),
      timeoutMs === undefined ? {} : { timeoutMs },
    );
  const busStatus = async (process: ConfbusProcess) =>
    ((await getJson(`${process.url}/actuator/health`)).body as { components: { bus: { status: string } } })
      .components.bus.status;

  before(async () => {
    broker = await startKafkaBroker();
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({ 'sample.yml': yaml('first'), 'sample-real.yml': 'group:\n  profile: real\n' });
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: `${temp.path}/mirror`,
      cwd: temp.path,
      args: busArgs(),
    });
    clients = await Promise.all([startClient('dev'), startClient('real'), startClient('real')]);
    observer = kafkaBusMember(broker.bootstrap, { busId: 'observer:0:test' });
    observer.on('ack', (ack) => acks.push(ack));
    await observer.start();
    assert.ok(observer.connected);
  });

  after(async () => {
    await observer?.close();
    await stopAllNodeProcesses();
    await broker?.remove();
    await remote?.remove();
    await temp?.remove();
  });

  it('one POST /actuator/busrefresh refreshes every client over Kafka, and they ack with their version', async () => {
    for (const process of [server, ...clients]) assert.equal(await busStatus(process), 'UP');
    const health = (await getJson(`${server.url}/actuator/health`)).body as {
      components: { bus: { details: { topic: string; group: string } } };
    };
    assert.equal(health.components.bus.details.topic, 'springCloudBus');
    assert.match(health.components.bus.details.group, /^anonymous\./);

    const sha = await remote.commit({ 'sample.yml': yaml('second') });
    const response = await postJson(`${clients[0]!.url}/actuator/busrefresh`);
    assert.equal(response.status, 204);
    for (const client of clients) await waitForComment(client, 'second');
    const remoteAcks = await waitFor('acks from the two other clients', () => {
      const found = acks.filter((ack) => ack.originService.startsWith('sample:real:'));
      return found.length >= 2 ? found : undefined;
    });
    assert.ok(remoteAcks.every((ack) => ack.configVersion === sha));
  });

  it('a webhook to the server refreshes the matching clients, and the server tracks their acks', async () => {
    const sha = await remote.commit({ 'sample-real.yml': `group:\n  profile: real\n  comment: third\n` });
    const response = await fetch(`${server.url}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'sample-real.yml' }),
    });
    assert.equal(response.status, 200, await response.text());
    await waitForComment(clients[1]!, 'third');
    await waitForComment(clients[2]!, 'third');
    assert.equal(await comment(clients[0]!), 'second', 'sample-real.yml does not apply to the dev client');
    // Spring's monitor addresses `sample-real` and `sample`: every client refreshes (for `sample`) and acks.
    const tracked = await waitFor('three acks at /actuator/refresh-events', async () => {
      const events = (await getJson(`${server.url}/actuator/refresh-events`)).body as TrackedRefresh[];
      const entry = events.find((e) => e.commit === sha && e.destination === 'sample:**');
      return entry && entry.acks.length >= 3 ? entry : undefined;
    });
    assert.ok(tracked.acks.every((ack) => ack.service.startsWith('sample:') && ack.configVersion === sha));
  });

  it('after a broker restart during a push, every node reconnects and the clients catch up', async () => {
    await broker.stop();
    await waitFor('the server to report the bus down', async () => (await busStatus(server)) === 'DOWN');
    const sha = await remote.commit({
      'sample.yml': yaml('fourth'),
      'sample-real.yml': 'group:\n  profile: real\n  comment: fourth\n',
    });
    const refused = await fetch(`${server.url}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'sample.yml' }),
    });
    assert.equal(refused.status, 503, 'the push could not be announced while the broker was down');
    for (const client of clients)
      assert.equal(await comment(client), client === clients[0] ? 'second' : 'third');

    await broker.start();
    for (const client of clients) await waitForComment(client, 'fourth', 120_000);
    for (const process of [server, ...clients]) {
      await waitFor(`${process.url} bus UP again`, async () => (await busStatus(process)) === 'UP');
    }
    const caughtUp = clients[1]!.process.lines.some(
      (line) => line.includes('Bus reconnected: the config server moved') && line.includes(sha),
    );
    assert.ok(caughtUp, clients[1]!.process.lines.slice(-30).join('\n'));
    // And the bus works again: one more refresh from a client.
    await remote.commit({ 'sample.yml': yaml('fifth'), 'sample-real.yml': 'group:\n  profile: real\n' });
    assert.equal((await postJson(`${clients[2]!.url}/actuator/busrefresh`)).status, 204);
    for (const client of clients) await waitForComment(client, 'fifth');
  });
});
