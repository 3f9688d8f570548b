import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BusMessageError,
  createAckEvent,
  createRefreshEvent,
  decodeBusEvent,
  encodeBusEvent,
  isAckEvent,
  isRefreshEvent,
  type BusEvent,
} from '../src/index.js';
import { isEnvironmentChangeEvent } from '../src/bus-events/bus-event.js';
import { MAX_BUS_FIELD_LENGTH } from '../src/bus-events/bus-event-decoder.js';

// Reference §5 sample shapes, with full ids.
const REFRESH_JSON =
  '{"type":"RefreshRemoteApplicationEvent","timestamp":1563303289000,' +
  '"originService":"configserver:8888:3f1c0a","destinationService":"foo:**",' +
  '"id":"b70947c1-048e-4e37-8c20-b1640de9bc75"}';
const ACK_JSON =
  '{"type":"AckRemoteApplicationEvent","timestamp":1563303289729,"originService":"foo:8080:9a2b",' +
  '"destinationService":"**","id":"8bc427a0-3e3f-4ad1-9c5b-1f0e7a3d2c11",' +
  '"ackId":"b70947c1-048e-4e37-8c20-b1640de9bc75","ackDestinationService":"foo:**",' +
  '"event":"org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent"}';

function expectBusError(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof BusMessageError, `expected BusMessageError, got ${String(err)}`);
    assert.equal(err.code, 'CONFBUS_BAD_BUS_MESSAGE');
    assert.match(err.message, message);
    return true;
  });
}

describe('bus wire format', () => {
  it('writes a refresh event exactly as Spring (Jackson 2) does', () => {
    const e = createRefreshEvent(
      'configserver:8888:3f1c0a',
      'foo',
      1563303289000,
      'b70947c1-048e-4e37-8c20-b1640de9bc75',
    );
    assert.equal(encodeBusEvent(e), REFRESH_JSON);
  });

  it('defaults a refresh to everyone, now and a fresh uuid', () => {
    const before = Date.now();
    const e = createRefreshEvent('a:8080:x');
    assert.equal(e.destinationService, '**');
    assert.ok(e.timestamp >= before);
    assert.match(e.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(createRefreshEvent('a:8080:x').id, e.id);
  });

  it('writes an ack exactly as Spring does, keyed to the acked event', () => {
    const refresh = decodeBusEvent(REFRESH_JSON);
    const ack = createAckEvent('foo:8080:9a2b', refresh);
    assert.equal(ack.ackId, refresh.id);
    assert.equal(ack.ackDestinationService, 'foo:**');
    assert.equal(ack.destinationService, '**');
    assert.equal(ack.event, 'org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent');
    const fixed = { ...ack, timestamp: 1563303289729, id: '8bc427a0-3e3f-4ad1-9c5b-1f0e7a3d2c11' };
    assert.equal(encodeBusEvent(fixed), ACK_JSON);
    assert.equal(
      createAckEvent('foo:8080:9a2b', refresh, 'configserver').destinationService,
      'configserver:**',
    );
  });

  it('round-trips refresh, ack, environment-change and unknown events', () => {
    for (const json of [
      REFRESH_JSON,
      ACK_JSON,
      '{"type":"EnvironmentChangeRemoteApplicationEvent","timestamp":1,"originService":"a","destinationService":"**","id":"x","values":{"a.b":"1"}}',
      '{"type":"MyCustomEvent","timestamp":2,"originService":"a","destinationService":"b:**","id":"y","payload":{"k":[1,2]}}',
    ]) {
      assert.equal(encodeBusEvent(decodeBusEvent(json)), json);
      assert.equal(encodeBusEvent(decodeBusEvent(new TextEncoder().encode(json))), json);
    }
  });

  it('writes fields in Jackson order whatever the order of the object passed in', () => {
    const e = {
      id: 'i',
      event: 'org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent',
      ackDestinationService: '**',
      ackId: 'k',
      destinationService: '**',
      originService: 'o',
      timestamp: 5,
      type: 'AckRemoteApplicationEvent',
    } as const;
    assert.deepEqual(Object.keys(JSON.parse(encodeBusEvent(e))), [
      'type',
      'timestamp',
      'originService',
      'destinationService',
      'id',
      'ackId',
      'ackDestinationService',
      'event',
    ]);
  });

  it('narrows with the type guards and keeps unknown types as unknown events', () => {
    const events: BusEvent[] = [REFRESH_JSON, ACK_JSON].map((j) => decodeBusEvent(j));
    assert.ok(isRefreshEvent(events[0]!));
    assert.ok(isAckEvent(events[1]!) && events[1].ackId === 'b70947c1-048e-4e37-8c20-b1640de9bc75');
    const unknown = decodeBusEvent(
      '{"type":"FooEvent","timestamp":1,"originService":"a","destinationService":"**","id":"z","x":1}',
    );
    assert.ok(!isRefreshEvent(unknown) && !isAckEvent(unknown) && !isEnvironmentChangeEvent(unknown));
    assert.deepEqual('extra' in unknown ? unknown.extra : undefined, { x: 1 });
    assert.equal(
      createAckEvent('me', unknown).event,
      'org.springframework.cloud.bus.event.UnknownRemoteApplicationEvent',
    );
  });

  it("keeps an ack's configVersion (ours), writes it only when set, and ignores one of the wrong shape", () => {
    const withVersion = ACK_JSON.replace(/}$/, ',"configVersion":"0123abcd"}');
    const e = decodeBusEvent(withVersion);
    assert.ok(isAckEvent(e));
    assert.equal(e.configVersion, '0123abcd');
    assert.equal(encodeBusEvent(e), withVersion);
    const plain = decodeBusEvent(ACK_JSON);
    assert.ok(isAckEvent(plain) && !('configVersion' in plain));
    assert.equal(encodeBusEvent(plain), ACK_JSON);
    const snake = decodeBusEvent(ACK_JSON.replace(/}$/, ',"config_version":"beef"}'));
    assert.ok(isAckEvent(snake) && snake.configVersion === 'beef');
    const odd = decodeBusEvent(ACK_JSON.replace(/}$/, ',"configVersion":42}'));
    assert.ok(
      isAckEvent(odd) && odd.configVersion === undefined,
      'a numeric version is ignored, the ack kept',
    );
  });

  it("keeps an ack's outcome and reason (ours), and ignores an outcome it does not know", () => {
    const rejected = ACK_JSON.replace(
      /}$/,
      ',"configVersion":"0123abcd","outcome":"rejected","reason":"too small"}',
    );
    const e = decodeBusEvent(rejected);
    assert.ok(isAckEvent(e));
    assert.deepEqual([e.outcome, e.reason], ['rejected', 'too small']);
    assert.equal(encodeBusEvent(e), rejected);
    const applied = decodeBusEvent(ACK_JSON.replace(/}$/, ',"outcome":"applied","reason":"ignored"}'));
    assert.ok(isAckEvent(applied) && applied.outcome === 'applied' && !('reason' in applied));
    const odd = decodeBusEvent(ACK_JSON.replace(/}$/, ',"outcome":"maybe"}'));
    assert.ok(isAckEvent(odd) && !('outcome' in odd));
    const long = decodeBusEvent(
      ACK_JSON.replace(/}$/, `,"outcome":"rejected","reason":"${'x'.repeat(5000)}"}`),
    );
    assert.ok(isAckEvent(long) && long.reason?.length === 1024, 'a long reason is cut, the ack kept');
  });

  it("keeps a refresh's version hint (ours, after Spring's fields), writes it only when set", () => {
    const hinted = REFRESH_JSON.replace(/}$/, ',"configVersion":"' + 'a'.repeat(40) + '"}');
    const e = decodeBusEvent(hinted);
    assert.ok(isRefreshEvent(e));
    assert.equal(e.configVersion, 'a'.repeat(40));
    assert.equal(encodeBusEvent(e), hinted);
    const plain = decodeBusEvent(REFRESH_JSON);
    assert.ok(isRefreshEvent(plain) && !('configVersion' in plain));
    assert.equal(encodeBusEvent(plain), REFRESH_JSON, 'an event without a hint is byte-identical to Spring');
    const odd = decodeBusEvent(REFRESH_JSON.replace(/}$/, ',"configVersion":{"x":1}}'));
    assert.ok(isRefreshEvent(odd) && odd.configVersion === undefined, 'a hint of the wrong shape is ignored');
  });

  it('reads the snake_case keys an app with a snake_case Jackson mapper sends', () => {
    // Shape of the captured ack in ityouknow/blog-comments#91.
    const e = decodeBusEvent(
      '{"type":"AckRemoteApplicationEvent","timestamp":1563303289729,"origin_service":"support-uaa:local:9999",' +
        '"destination_service":"**","id":"8bc427a0","ack_id":"b70947c1","ack_destination_service":"**",' +
        '"event":"org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent"}',
    );
    assert.ok(isAckEvent(e));
    assert.equal(e.originService, 'support-uaa:local:9999');
    assert.equal(e.destinationService, '**');
    assert.equal(e.ackId, 'b70947c1');
    assert.equal(e.ackDestinationService, '**');
    // Written back in Spring's default (camelCase) form.
    assert.match(encodeBusEvent(e), /"originService":"support-uaa:local:9999"/);
  });

  it('keeps the destination as sent and reads a missing or null one as everyone', () => {
    const base = '"type":"RefreshRemoteApplicationEvent","timestamp":1,"originService":"a","id":"i"';
    assert.equal(decodeBusEvent(`{${base},"destinationService":"foo"}`).destinationService, 'foo');
    assert.equal(decodeBusEvent(`{${base}}`).destinationService, '**');
    assert.equal(decodeBusEvent(`{${base},"destinationService":null}`).destinationService, '**');
  });

  it('rejects messages whose ids or destinations are longer than MAX_BUS_FIELD_LENGTH', () => {
    const long = 'x'.repeat(MAX_BUS_FIELD_LENGTH + 1);
    const base = { type: 'AckRemoteApplicationEvent', timestamp: 1, originService: 'a', id: 'i' };
    const ack = { ...base, ackId: 'e', ackDestinationService: '**', event: 'E' };
    for (const field of [
      'originService',
      'destinationService',
      'id',
      'ackId',
      'ackDestinationService',
      'event',
      'configVersion',
    ]) {
      expectBusError(
        () => decodeBusEvent(JSON.stringify({ ...ack, [field]: long })),
        new RegExp(`"${field}" is ${long.length} characters long`),
      );
    }
    assert.equal(
      decodeBusEvent(JSON.stringify({ ...ack, originService: long.slice(1) })).originService.length,
      MAX_BUS_FIELD_LENGTH,
    );
  });

  it('rejects malformed messages, naming what is wrong', () => {
    expectBusError(() => decodeBusEvent('{"type":'), /not valid JSON/);
    expectBusError(() => decodeBusEvent('[1]'), /must be a JSON object, got an array/);
    expectBusError(() => decodeBusEvent('null'), /must be a JSON object, got null/);
    expectBusError(() => decodeBusEvent('{"timestamp":1,"originService":"a","id":"i"}'), /no "type" field/);
    expectBusError(
      () => decodeBusEvent('{"type":"RefreshRemoteApplicationEvent","timestamp":1,"id":"i"}'),
      /no "originService" field/,
    );
    expectBusError(
      () =>
        decodeBusEvent(
          '{"type":"RefreshRemoteApplicationEvent","timestamp":"soon","originService":"a","id":"i"}',
        ),
      /"timestamp" must be epoch milliseconds, got a string/,
    );
    expectBusError(
      () => decodeBusEvent('{"type":"RefreshRemoteApplicationEvent","timestamp":1,"originService":"a"}'),
      /no "id" field/,
    );
    expectBusError(
      () =>
        decodeBusEvent(
          '{"type":"RefreshRemoteApplicationEvent","timestamp":1,"originService":"a","id":"i","destinationService":3}',
        ),
      /"destinationService" must be a string, got a number/,
    );
    expectBusError(
      () => decodeBusEvent('{"type":"AckRemoteApplicationEvent","timestamp":1,"originService":"a","id":"i"}'),
      /no "ackId" field/,
    );
    expectBusError(
      () =>
        decodeBusEvent(
          '{"type":"EnvironmentChangeRemoteApplicationEvent","timestamp":1,"originService":"a","id":"i","values":{"k":{}}}',
        ),
      /"values.k" must be a string/,
    );
  });
});
