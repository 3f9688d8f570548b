// The bus over Kafka end to end: `confbus server` and three `confbus sample-client` processes on a real Kafka
// broker (KRaft, from Maven Central's jars). busrefresh, a webhook to the fleet with the server's ack tracking,
// an ack flood with acks beyond the bounds (as the AMQP suites send), and a broker restart during which a push
// happens (the clients catch up from the server once back).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
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
import { Producer } from '@platformatic/kafka';

const availability = kafkaAvailability();
const yaml = (comment: string) => `group:\n  profile: base\n  comment: ${comment}\n`;
/** The server keeps this many acks per refresh event (confbus.server.refresh-events.max-acks-per-event). */
const MAX_ACKS = 100;
const FLOOD = 2_000;

interface TrackedRefresh {
  id: string;
  destination: string;
  commit: string;
  ackCount: number;
  droppedAcks: number;
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
  type BusComponent = { status: string; details: { lastError?: string; lastErrorCode?: string } };
  const busHealth = async (process: ConfbusProcess) =>
    ((await getJson(`${process.url}/actuator/health`)).body as { components: { bus: BusComponent } })
      .components.bus;
  const busStatus = async (process: ConfbusProcess) => (await busHealth(process)).status;

  before(async () => {
    broker = await startKafkaBroker();
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({ 'sample.yml': yaml('first'), 'sample-real.yml': 'group:\n  profile: real\n' });
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: `${temp.path}/mirror`,
      cwd: temp.path,
      args: [...busArgs(), `--confbus.server.refresh-events.max-acks-per-event=${MAX_ACKS}`],
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

  it('an ack flood and acks beyond the bounds: the server keeps its bound and drops what is too long', async () => {
    const monitor = async (path: string) => {
      const response = await fetch(`${server.url}/monitor`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path }),
      });
      assert.equal(response.status, 200, await response.text());
    };
    // Two events for services no client runs: one to flood, one whose ack tells that the flood was consumed.
    await monitor('flood-target.yml');
    await monitor('flood-sentinel.yml');
    const events = async () =>
      (await getJson(`${server.url}/actuator/refresh-events?acks=${MAX_ACKS}`)).body as TrackedRefresh[];
    const [target, sentinel] = await waitFor('both events listed', async () => {
      const listed = await events();
      const found = ['flood-target:**', 'flood-sentinel:**'].map((d) =>
        listed.find((e) => e.destination === d),
      );
      return found.every(Boolean) ? (found as TrackedRefresh[]) : undefined;
    });
    const ack = (ackId: string, originService: string, extra: Record<string, unknown> = {}) => ({
      type: 'AckRemoteApplicationEvent',
      timestamp: Date.now(),
      originService,
      destinationService: '**',
      id: randomUUID(),
      ackId,
      ackDestinationService: 'flood-target:**',
      event: 'org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent',
      ...extra,
    });
    const records = [
      // Beyond the bus's field bound (1,024 characters): malformed, dropped and logged by every node.
      ack(target!.id, `flood:8080:${'x'.repeat(1_100)}`),
      ack(target!.id, 'flood:8080:long-version', { configVersion: 'v'.repeat(1_100) }),
      // Within it, beyond what the server keeps of an ack (a 512-character service, a 128-character version).
      ack(target!.id, `flood:8080:${'y'.repeat(600)}`),
      ack(target!.id, 'flood:8080:tracked-version', { configVersion: 'w'.repeat(200) }),
      ...Array.from({ length: FLOOD }, (_, i) => ack(target!.id, `flood:8080:forged-${i}`)),
      // Last on the one partition: once the server lists it, it has read everything before it.
      ack(sentinel!.id, 'flood:8080:sentinel'),
    ];
    const droppedBefore = server.process.lines.filter((line) => line.includes('dropped bus message')).length;
    const producer = new Producer({ clientId: 'flood', bootstrapBrokers: [broker.bootstrap], acks: -1 });
    try {
      for (let i = 0; i < records.length; i += 250) {
        await producer.send({
          messages: records.slice(i, i + 250).map((record) => ({
            topic: 'springCloudBus',
            value: Buffer.from(JSON.stringify(record)),
            headers: new Map([[Buffer.from('contentType'), Buffer.from('application/json')]]),
          })),
        });
      }
    } finally {
      await producer.close();
    }
    await waitFor('the server to record the sentinel ack', async () =>
      (await events()).some(
        (e) => e.id === sentinel!.id && e.acks.some((a) => a.service === 'flood:8080:sentinel'),
      ),
    );
    const flooded = (await events()).find((e) => e.id === target!.id)!;
    assert.equal(flooded.ackCount, MAX_ACKS);
    assert.equal(
      flooded.droppedAcks,
      FLOOD - MAX_ACKS,
      'every forged ack beyond the bound counted, none kept',
    );
    assert.ok(flooded.acks.every((a) => /^flood:8080:forged-\d+$/.test(a.service)));
    const dropped = server.process.lines.filter((line) => line.includes('dropped bus message'));
    assert.equal(dropped.length - droppedBefore, 2, dropped.slice(droppedBefore).join('\n'));
    assert.equal((await getJson(`${server.url}/sample/dev`)).status, 200, 'still serving');
    for (const process of [server, ...clients]) assert.equal(await busStatus(process), 'UP');
  });

  it('after a broker restart during a push, every node reconnects and the clients catch up', async () => {
    await broker.stop();
    await waitFor('the server to report the bus down', async () => (await busStatus(server)) === 'DOWN');
    // And why, once a reconnection attempt has failed: nothing listens on the broker's port.
    await waitFor('the server to say why', async () =>
      /ECONNREFUSED/.test(String((await busHealth(server)).details.lastError)),
    );
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
    assert.equal((await busHealth(server)).details.lastError, undefined, 'no error once connected');
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
