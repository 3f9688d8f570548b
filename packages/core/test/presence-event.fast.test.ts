// Presence events on the wire: announcements and requests encode as Spring-shaped bus events of unknown types
// (so Spring nodes read them as UnknownRemoteApplicationEvent), decode back, and malformed ones are ignored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createPresenceAnnouncement,
  createPresenceRequest,
  decodeBusEvent,
  encodeBusEvent,
  isForSelf,
  isPresenceRequest,
  readPresenceAnnouncement,
} from '../src/index.js';
import { MAX_PRESENCE_CONTRACT_CHARS, PRESENCE_DESTINATION } from '../src/bus-events/presence-event.js';

const info = {
  application: 'sample',
  profiles: ['dev', 'eu'],
  label: null,
  configVersion: 'a'.repeat(40),
  startedAt: 1_700_000_000_000,
  leaving: false,
};

describe('presence events', () => {
  it('round-trips an announcement through the wire format, after the base fields Spring reads', () => {
    const event = createPresenceAnnouncement('sample:dev,eu:8080:abc', info, 1_700_000_001_000);
    const wire = encodeBusEvent(event);
    assert.deepEqual(Object.keys(JSON.parse(wire) as object).slice(0, 5), [
      'type',
      'timestamp',
      'originService',
      'destinationService',
      'id',
    ]);
    const read = readPresenceAnnouncement(decodeBusEvent(wire));
    assert.deepEqual(read, { service: 'sample:dev,eu:8080:abc', timestamp: 1_700_000_001_000, ...info });
  });

  it('addresses announcements to nobody and requests to everybody', () => {
    const announcement = decodeBusEvent(encodeBusEvent(createPresenceAnnouncement('a:1:x', info)));
    assert.equal(announcement.destinationService, PRESENCE_DESTINATION);
    for (const busId of ['sample:8080:abc', 'sample:dev:8080:abc', 'confbus-presence:1:x'])
      assert.equal(isForSelf(announcement, busId), false, busId);
    const request = decodeBusEvent(encodeBusEvent(createPresenceRequest('configserver:8888:x')));
    assert.ok(isPresenceRequest(request));
    assert.ok(isForSelf(request, 'sample:8080:abc'));
  });

  it('ignores malformed or oversized announcements', () => {
    const base = JSON.parse(encodeBusEvent(createPresenceAnnouncement('a:1:x', info))) as Record<
      string,
      unknown
    >;
    for (const patch of [
      { application: 42 },
      { application: '' },
      { application: 'x'.repeat(201) },
      { profiles: 'dev' },
      { profiles: Array.from({ length: 33 }, (_, i) => `p${i}`) },
      { profiles: [1] },
    ]) {
      assert.equal(
        readPresenceAnnouncement(decodeBusEvent(JSON.stringify({ ...base, ...patch }))),
        undefined,
      );
    }
    const noVersion = readPresenceAnnouncement(decodeBusEvent(JSON.stringify({ ...base, configVersion: 7 })));
    assert.equal(noVersion?.configVersion, null);
  });
});

describe('a presence announcement carrying a contract', () => {
  it('keeps a JSON Schema object within the bound, and drops one too large or not an object', () => {
    const base = {
      application: 'shop',
      profiles: [],
      label: null,
      configVersion: null,
      startedAt: 1,
      leaving: false,
    };
    const read = (contract: unknown) =>
      readPresenceAnnouncement(
        createPresenceAnnouncement('shop:8080:a', { ...base, contract: contract as Record<string, unknown> }),
      )?.contract;
    assert.deepEqual(read({ type: 'object' }), { type: 'object' });
    assert.equal(read({ big: 'x'.repeat(MAX_PRESENCE_CONTRACT_CHARS) }), undefined);
    assert.equal(read(['not', 'an', 'object']), undefined);
  });
});
