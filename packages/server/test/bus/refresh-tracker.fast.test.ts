// The refresh tracker on its own (fast tier): forged acks from the bus must neither crash the server nor grow
// its memory without bound (issue #15: ~140,000 acks for one event ended the process with a RangeError).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  type AckBusEvent,
  type Logger,
  createAckEvent,
  createRefreshEvent,
  silentLogger,
} from '@confbus/core';
import {
  DEFAULT_TRACKER_LIMITS,
  EARLY_ACK_BYTES,
  EARLY_ACK_WINDOW_MS,
  MAX_ACK_SERVICE_LENGTH,
  RefreshTracker,
} from '../../src/bus/refresh-tracker.js';
import { FakeClock } from '../fake-clock.js';

const COMMIT = 'a'.repeat(40);

function ackFor(eventId: string, service: string, configVersion?: string): AckBusEvent {
  const event = { ...createRefreshEvent('configserver:8888:x', 'foo'), id: eventId };
  return { ...createAckEvent(service, event), ...(configVersion ? { configVersion } : {}) };
}

function summaryLogger(): { logger: Logger; lines: Promise<string> } {
  let resolve!: (line: string) => void;
  const lines = new Promise<string>((r) => (resolve = r));
  return { logger: { ...silentLogger, info: (_fields, message) => resolve(message ?? '') }, lines };
}

describe('RefreshTracker bounds', () => {
  it('survives 140,000 forged acks for one event and keeps at most maxAcksPerEvent of them', async () => {
    const { logger, lines } = summaryLogger();
    const tracker = new RefreshTracker(
      logger,
      { maxEvents: 10, maxAcksPerEvent: 10_000, maxBytes: 64 * 1024 * 1024 },
      { summaryQuietMs: 10 },
    );
    const event = createRefreshEvent('configserver:8888:x', 'foo');
    tracker.published(event, COMMIT);
    for (let i = 0; i < 140_000; i++) tracker.acked(ackFor(event.id, `foo:8080:${i}`, COMMIT));
    // The summary runs in a timer: on the old tracker it threw "Maximum call stack size exceeded" there.
    assert.match(await lines, /10000 ack\(s\)/);
    const [entry] = tracker.list().events;
    assert.equal(entry?.ackCount, 10_000);
    assert.equal(entry?.droppedAcks, 130_000);
    tracker.close();
  });

  it('records one ack per service and ignores unknown events and oversized fields', () => {
    const tracker = new RefreshTracker(silentLogger);
    const event = createRefreshEvent('configserver:8888:x', 'foo');
    tracker.published(event, COMMIT);
    tracker.acked(ackFor(event.id, 'foo:8080:a', COMMIT));
    tracker.acked(ackFor(event.id, 'foo:8080:a', 'b'.repeat(40))); // a repeat of the same service
    tracker.acked(ackFor(randomUUID(), 'foo:8080:stray', COMMIT)); // an event we never published
    tracker.acked(ackFor(event.id, `foo:8080:${'x'.repeat(600)}`, COMMIT)); // service id too long
    tracker.acked(ackFor(event.id, 'foo:8080:b', 'c'.repeat(200))); // version too long
    const [entry] = tracker.list().events;
    assert.deepEqual(
      entry?.acks.map((a) => [a.service, a.configVersion]),
      [['foo:8080:a', COMMIT]],
    );
    assert.equal(tracker.list().total, 1);
    tracker.close();
  });

  it('keeps an ack that arrives before its event is registered (the broker confirms after the clients ack)', () => {
    const tracker = new RefreshTracker(silentLogger);
    const event = createRefreshEvent('configserver:8888:x', 'foo');
    tracker.acked(ackFor(event.id, 'foo:8080:fast', COMMIT));
    assert.equal(tracker.list().total, 0);
    tracker.published(event, COMMIT);
    tracker.acked(ackFor(event.id, 'foo:8080:slow', COMMIT));
    const [entry] = tracker.list().events;
    assert.deepEqual(
      entry?.acks.map((a) => a.service),
      ['foo:8080:fast', 'foo:8080:slow'],
    );
    tracker.close();
  });

  it('holds acks for events never registered within EARLY_ACK_BYTES, letting the first held go first', () => {
    const tracker = new RefreshTracker(silentLogger);
    const first = createRefreshEvent('configserver:8888:x', 'foo');
    const last = createRefreshEvent('configserver:8888:x', 'foo');
    tracker.acked(ackFor(first.id, 'foo:8080:first', COMMIT));
    // 10,000 forged acks with the longest origin and version kept: some 14 MB of fields.
    const forged = (i: number) =>
      ackFor(randomUUID(), `${i}:`.padEnd(MAX_ACK_SERVICE_LENGTH, 'x'), 'v'.repeat(128));
    for (let i = 0; i < 10_000; i++) {
      tracker.acked(forged(i));
      assert.ok(tracker.heldAckBytes <= EARLY_ACK_BYTES, `${tracker.heldAckBytes} bytes held after ${i + 1}`);
    }
    tracker.acked(ackFor(last.id, 'foo:8080:last', COMMIT));
    tracker.published(first, COMMIT);
    tracker.published(last, COMMIT);
    const counts = Object.fromEntries(tracker.list().events.map((e) => [e.id, e.ackCount]));
    assert.deepEqual(counts, { [first.id]: 0, [last.id]: 1 }, 'the first held ack was let go, the last kept');
    tracker.close();
  });

  it('holds an ack for an event not registered yet for EARLY_ACK_WINDOW_MS only', () => {
    const clock = new FakeClock();
    const tracker = new RefreshTracker(silentLogger, DEFAULT_TRACKER_LIMITS, { clock });
    const late = createRefreshEvent('configserver:8888:x', 'foo');
    const soon = createRefreshEvent('configserver:8888:x', 'foo');
    tracker.acked(ackFor(late.id, 'foo:8080:a', COMMIT));
    clock.advance(EARLY_ACK_WINDOW_MS - 100);
    tracker.acked(ackFor(soon.id, 'foo:8080:b', COMMIT));
    clock.advance(200); // late's ack has waited longer than the window, soon's has not
    tracker.published(late, COMMIT);
    tracker.published(soon, COMMIT);
    const counts = Object.fromEntries(tracker.list().events.map((e) => [e.id, e.ackCount]));
    assert.deepEqual(counts, { [late.id]: 0, [soon.id]: 1 });
    assert.equal(tracker.heldAckBytes, 0, 'nothing is held any more');
    tracker.close();
  });

  it('forgets the oldest events when the acks outgrow maxBytes, and drops acks that cannot fit', () => {
    const tracker = new RefreshTracker(silentLogger, {
      maxEvents: 100,
      maxAcksPerEvent: 1000,
      maxBytes: 20_000,
    });
    const events = Array.from({ length: 3 }, () => createRefreshEvent('configserver:8888:x', 'foo'));
    for (const event of events) {
      tracker.published(event, COMMIT);
      for (let i = 0; i < 40; i++) tracker.acked(ackFor(event.id, `foo:8080:${i}`, COMMIT));
    }
    const ids = tracker.list().events.map((e) => e.id);
    assert.equal(ids[0], events[2]!.id, 'the newest event is kept');
    assert.ok(!ids.includes(events[0]!.id), 'the oldest event was forgotten to make room');
    // One event alone larger than the budget: it keeps what fits and counts the rest.
    const big = createRefreshEvent('configserver:8888:x', 'bar');
    tracker.published(big, COMMIT);
    for (let i = 0; i < 1000; i++) tracker.acked(ackFor(big.id, `bar:8080:${i}`, COMMIT));
    const [entry] = tracker.list().events;
    assert.equal(entry?.id, big.id);
    assert.ok(entry!.ackCount < 1000 && entry!.ackCount > 0);
    assert.equal(entry!.ackCount + entry!.droppedAcks, 1000);
    tracker.close();
  });

  it('lists a page of events, newest first, with a bounded number of acks each', () => {
    const tracker = new RefreshTracker(silentLogger);
    const events = Array.from({ length: 5 }, () => createRefreshEvent('configserver:8888:x', 'foo'));
    for (const event of events) {
      tracker.published(event, COMMIT);
      for (let i = 0; i < 30; i++) tracker.acked(ackFor(event.id, `foo:8080:${i}`));
    }
    const page = tracker.list({ offset: 1, limit: 2, ackLimit: 10 });
    assert.equal(page.total, 5);
    assert.deepEqual(
      page.events.map((e) => e.id),
      [events[3]!.id, events[2]!.id],
    );
    assert.deepEqual(
      page.events.map((e) => [e.acks.length, e.ackCount]),
      [
        [10, 30],
        [10, 30],
      ],
    );
    tracker.close();
  });

  it('an event seen twice (published here, or redelivered from another server) keeps its acks', () => {
    const tracker = new RefreshTracker(silentLogger);
    const event = createRefreshEvent('configserver:8888:other', 'foo');
    tracker.published(event, COMMIT);
    tracker.acked(ackFor(event.id, 'foo:8080:a', COMMIT));
    tracker.published(event, COMMIT);
    assert.equal(tracker.list().events[0]?.ackCount, 1);
    assert.equal(tracker.list().total, 1);
    tracker.close();
  });
});
