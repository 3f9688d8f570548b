// BusNode over a real Kafka broker (KRaft, from Maven Central's jars): Spring's record format, addressing and
// acks, hostile records (malformed, and well-formed beyond the bounds AMQP applies), and a broker restart with
// resumption from the node's position.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import type { BusNode } from '@confbus/bus';
import { encodeBusEvent, type AckBusEvent, type RefreshBusEvent } from '@confbus/core';
import { Admin, Producer } from '@platformatic/kafka';
import { kafkaBusMember } from '@confbus/testkit/bus-member';
import { kafkaAvailability, startKafkaBroker, type TestKafkaBroker } from '@confbus/testkit/kafka-broker';
import { openRawKafkaTap } from '@confbus/testkit/raw-kafka-tap';
import { waitFor } from '@confbus/testkit/wait-for';
import { captureLogger } from './capture-logger.js';

const TOPIC = 'springCloudBus';
/** The decoder's bound on any text field (core's MAX_BUS_FIELD_LENGTH), the same whatever the transport. */
const FIELD_BOUND = 1024;
/** The matcher's bound on destination segments (core's MAX_DESTINATION_SEGMENTS). */
const DESTINATION_SEGMENTS = 64;
const availability = kafkaAvailability();

interface Member {
  node: BusNode;
  refreshes: RefreshBusEvent[];
  acks: AckBusEvent[];
  log: ReturnType<typeof captureLogger>;
}

describe(
  'BusNode against Kafka',
  { skip: availability.ok ? false : `not run: ${availability.reason}` },
  () => {
    let broker: TestKafkaBroker;
    const members: Member[] = [];
    const cleanups: (() => Promise<unknown>)[] = [];
    let a: Member; // publisher (a config server)
    let b: Member;
    let c: Member;

    function member(busId: string, reconnectDelayMs = { min: 100, max: 1000 }): Member {
      const log = captureLogger();
      const node = kafkaBusMember(broker.bootstrap, {
        busId,
        ackEnabled: true,
        logger: log,
        reconnectDelayMs,
        // The hostile-record tests read the reason of every record dropped: no line is held back here.
        droppedMessageLog: { lines: 1000, windowMs: 10_000 },
      });
      const m: Member = { node, refreshes: [], acks: [], log };
      node.on('refresh', (e) => m.refreshes.push(e));
      node.on('ack', (e) => m.acks.push(e));
      members.push(m);
      return m;
    }

    const acksFor = (m: Member, id: string) => m.acks.filter((ack) => ack.ackId === id);

    async function rawProducer(): Promise<Producer<Buffer, Buffer, Buffer, Buffer>> {
      const producer = new Producer({ clientId: 'raw', bootstrapBrokers: [broker.bootstrap], acks: -1 });
      cleanups.push(() => producer.close());
      return producer;
    }

    before(async () => {
      broker = await startKafkaBroker();
      a = member('configserver:8888:aaa');
      b = member('svc-b:8080:bbb');
      c = member('svc-c:dev,db:8080:ccc');
      await Promise.all([a, b, c].map((m) => m.node.start()));
      assert.ok(a.node.connected && b.node.connected && c.node.connected, 'all three nodes are connected');
    });

    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
      await Promise.all(members.map((m) => m.node.close()));
      await broker?.remove();
    });

    it('creates the topic as Spring does (one partition) and each node joins a group of its own', async () => {
      const admin = new Admin({ clientId: 'check', bootstrapBrokers: [broker.bootstrap] });
      try {
        const metadata = await admin.metadata({ topics: [TOPIC] });
        assert.equal(metadata.topics.get(TOPIC)?.partitionsCount, 1);
      } finally {
        await admin.close();
      }
      const groups = members.map((m) => m.node.transportDetails.group);
      for (const group of groups) assert.match(String(group), /^anonymous\.[0-9a-f-]{36}$/);
      assert.equal(new Set(groups).size, groups.length);
    });

    it('delivers a refresh to every other node, not back to the sender, and the sender sees the acks', async () => {
      const e = await a.node.publishRefresh();
      await waitFor('both acks at the publisher', () => acksFor(a, e.id).length === 2);
      assert.deepEqual(a.refreshes, []);
      assert.deepEqual(
        b.refreshes.map((r) => r.id),
        [e.id],
      );
      assert.deepEqual(
        c.refreshes.map((r) => r.id),
        [e.id],
      );
      assert.deepEqual(
        acksFor(a, e.id)
          .map((ack) => ack.originService)
          .sort(),
        ['svc-b:8080:bbb', 'svc-c:dev,db:8080:ccc'],
      );
    });

    it('delivers only to the addressed service, including by a single profile of a multi-profile id', async () => {
      const before = { b: b.refreshes.length, c: c.refreshes.length };
      const toDb = await a.node.publishRefresh('svc-c:db:**');
      await waitFor("c's ack seen by b", () => acksFor(b, toDb.id).length === 1);
      assert.equal(c.refreshes.at(-1)?.id, toDb.id);
      assert.equal(b.refreshes.length, before.b, 'b ignored a refresh addressed to svc-c:db');
      assert.equal(c.refreshes.length, before.c + 1);
    });

    it("writes Spring's record: no key, the event's JSON, contentType and spring_json_header_types headers", async () => {
      const tap = await openRawKafkaTap(broker.bootstrap, TOPIC);
      cleanups.push(() => tap.close());
      const e = await a.node.publishRefresh('svc-b');
      // The event itself, not svc-b's ack of it (whose ackId holds the same id).
      const isTheEvent = (r: (typeof tap.records)[number]) =>
        (JSON.parse(r.value) as { id?: unknown }).id === e.id;
      await waitFor('the raw consumer to get the refresh', () => tap.records.some(isTheEvent));
      const record = tap.records.find(isTheEvent)!;
      assert.equal(record.topic, TOPIC);
      assert.equal(record.key, undefined);
      assert.equal(record.value, encodeBusEvent(e));
      assert.deepEqual(record.headers, {
        contentType: 'application/json',
        spring_json_header_types: '{"contentType":"java.lang.String"}',
      });
    });

    it('accepts hand-written Spring records and drops malformed and hostile ones, staying subscribed', async () => {
      const producer = await rawProducer();
      const send = (
        value: Buffer | undefined,
        headers: Record<string, string> = { contentType: 'application/json' },
      ) =>
        producer.send({
          messages: [
            {
              topic: TOPIC,
              ...(value === undefined ? {} : { value }),
              headers: new Map(Object.entries(headers).map(([k, v]) => [Buffer.from(k), Buffer.from(v)])),
            },
          ],
        });
      const dropped = () => b.log.lines.filter((l) => l.msg === 'dropped bus message').length;
      const droppedBefore = dropped();
      await send(Buffer.from('this is not json'));
      await send(Buffer.from('{"type":"RefreshRemoteApplicationEvent","timestamp":1}'));
      await send(Buffer.from('[1,2,3]'), { contentType: 'text/plain' });
      await send(Buffer.from([0xff, 0xfe, 0x00, 0x7b]), { contentType: 'application/cbor' });
      await send(undefined); // a tombstone: no value at all
      await send(Buffer.from('{"type":"RefreshRemoteApplicationEvent"'.padEnd(200_000, ' ')), {
        spring_json_header_types: '{{{',
      });
      // What a Spring Cloud Stream 2.x app with a snake_case Jackson mapper sends (JSON-quoted header).
      const id = 'b70947c1-048e-4e37-8c20-b1640de9bc75';
      await send(
        Buffer.from(
          `{"type":"RefreshRemoteApplicationEvent","timestamp":1563303289000,"origin_service":"boot-app:8080:3f1c",` +
            `"destination_service":"svc-b:**","id":"${id}"}`,
        ),
        {
          contentType: '"application/json"',
          spring_json_header_types: '{"contentType":"org.springframework.util.MimeType"}',
        },
      );
      await waitFor('b to accept the hand-written refresh', () => b.refreshes.some((r) => r.id === id));
      assert.equal(dropped() - droppedBefore, 6, b.log.text());
      assert.ok(b.node.connected, 'b is still connected after the hostile records');
      assert.ok(!c.refreshes.some((r) => r.id === id));
      await waitFor('the ack from b for the hand-written event', () => acksFor(a, id).length === 1);
      const line = b.log.lines.find((l) => l.msg === 'dropped bus message' && 'contentType' in l.obj);
      assert.ok(line, 'dropped records are logged with where they came from');
    });

    it('drops well-formed events beyond the bus bounds and addresses no one with an over-long pattern, as on AMQP', async () => {
      const producer = await rawProducer();
      const sendEvent = (event: Record<string, unknown>) =>
        producer.send({
          messages: [
            {
              topic: TOPIC,
              value: Buffer.from(JSON.stringify(event)),
              headers: new Map([[Buffer.from('contentType'), Buffer.from('application/json')]]),
            },
          ],
        });
      const refresh = (fields: Record<string, unknown> = {}) => ({
        type: 'RefreshRemoteApplicationEvent',
        timestamp: Date.now(),
        originService: 'boot-app:8080:3f1c',
        destinationService: 'svc-b:**',
        id: randomUUID(),
        ...fields,
      });
      const long = 'x'.repeat(FIELD_BOUND + 1);
      const dropped = () => b.log.lines.filter((l) => l.msg === 'dropped bus message');
      const droppedBefore = dropped().length;
      const refreshesBefore = b.refreshes.length;
      // One character over the field bound, in each kind of field: malformed, dropped by every node.
      await sendEvent(refresh({ id: long }));
      await sendEvent(refresh({ originService: long }));
      await sendEvent(refresh({ destinationService: `svc-b:${long}` }));
      await sendEvent(refresh({ configVersion: long }));
      await sendEvent({
        ...refresh({ type: 'AckRemoteApplicationEvent', destinationService: '**' }),
        ackId: randomUUID(),
        ackDestinationService: long,
        event: 'org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent',
      });
      // Within the field bound, beyond the matcher's: well-formed, and for no one (no backtracking either).
      await sendEvent(refresh({ destinationService: `${'**:'.repeat(DESTINATION_SEGMENTS)}**` }));
      await sendEvent(refresh({ destinationService: `**:${'*'.repeat(60)}z` }));
      const sentinel = refresh();
      await sendEvent(sentinel);
      await waitFor('b to get the well-formed refresh sent last', () =>
        b.refreshes.some((r) => r.id === sentinel.id),
      );
      assert.deepEqual(
        b.refreshes.slice(refreshesBefore).map((r) => r.id),
        [sentinel.id],
        'only the last refresh reached b',
      );
      const reasons = dropped()
        .slice(droppedBefore)
        .map((l) => String((l.obj as { err?: { message?: unknown } }).err?.message));
      assert.deepEqual(
        reasons.map((reason) => /field "(\w+)" is (\d+) characters long/.exec(reason)?.slice(1)),
        [
          ['id', String(FIELD_BOUND + 1)],
          ['originService', String(FIELD_BOUND + 1)],
          ['destinationService', String(FIELD_BOUND + 7)],
          ['configVersion', String(FIELD_BOUND + 1)],
          ['ackDestinationService', String(FIELD_BOUND + 1)],
        ],
        reasons.join('\n'),
      );
      assert.ok(b.node.connected, 'b is still connected');
    });

    it('resumes where it was after losing its connection: events sent meanwhile arrive once it is back', async () => {
      // d reaches the broker through the helper's proxy, which the test cuts while the broker stays up.
      const log = captureLogger();
      const d: Member = {
        node: kafkaBusMember(broker.flakyBootstrap, {
          busId: 'svc-d:8080:ddd',
          ackEnabled: true,
          logger: log,
        }),
        refreshes: [],
        acks: [],
        log,
      };
      d.node.on('refresh', (e) => d.refreshes.push(e));
      members.push(d);
      await d.node.start();
      assert.ok(d.node.connected);
      const lost = once(d.node, 'disconnected');
      broker.cutFlaky();
      await lost;
      const missed = await a.node.publishRefresh('svc-d');
      assert.equal(d.node.connected, false);
      const back = once(d.node, 'reconnected');
      broker.restoreFlaky();
      await back;
      await waitFor('d to get the event sent while it was away', () =>
        d.refreshes.some((r) => r.id === missed.id),
      );
      await waitFor("d's ack", () => acksFor(a, missed.id).length === 1);
      assert.equal(d.refreshes.filter((r) => r.id === missed.id).length, 1, 'delivered once');
    });

    it('survives a broker restart: every node reconnects and receives events again', async () => {
      const nodes = members.filter((m) => m.node.connected);
      const lost = Promise.all(nodes.map((m) => once(m.node, 'disconnected')));
      await broker.stop();
      await lost;
      const back = Promise.all(nodes.map((m) => once(m.node, 'reconnected')));
      await broker.start();
      await back;
      const e = await a.node.publishRefresh();
      const others = nodes.filter((m) => m !== a);
      await waitFor('everyone after the restart', () =>
        others.every((m) => m.refreshes.some((r) => r.id === e.id)),
      );
      await waitFor('acks after the restart', () => acksFor(a, e.id).length === others.length);
    });
  },
);
