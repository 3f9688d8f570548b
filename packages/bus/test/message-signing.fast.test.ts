// Signed bus messages (confbus.bus.signing.*): the HMAC over every body form a transport hands over, key
// rotation, the modes, replays. The real-broker side is bus-signing.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageSigning } from '@confbus/bus';
import { type BusSigningSettings, createRefreshEvent, encodeBusEvent } from '@confbus/core';

const KEY = 'k'.repeat(32);
const OLD_KEY = 'o'.repeat(32);
const settings = (mode: BusSigningSettings['mode'], keys = [KEY]): BusSigningSettings => ({
  mode,
  keys,
  maxAgeMs: 60_000,
});

describe('MessageSigning', () => {
  const body = encodeBusEvent(createRefreshEvent('configserver:8888:a', 'orders:**'));
  const signing = new MessageSigning(settings('require'));
  const signature = signing.sign(body);

  it('verifies the signature over bytes, text and already-parsed JSON bodies alike', () => {
    assert.match(signature ?? '', /^v1=[\w-]{43}$/);
    assert.equal(signing.verify({ bytes: Buffer.from(body) }, signature), 'valid');
    assert.equal(signing.verify({ text: body }, signature), 'valid');
    assert.equal(signing.verify({ json: JSON.parse(body) as unknown }, signature), 'valid');
  });

  it('refuses an altered body, another key, a malformed header; tells unsigned apart', () => {
    const altered = body.replace('orders:**', '**');
    assert.equal(signing.verify({ text: altered }, signature), 'invalid');
    assert.equal(
      new MessageSigning(settings('require', [OLD_KEY])).verify({ text: body }, signature),
      'invalid',
    );
    assert.equal(signing.verify({ text: body }, 'v2=abc'), 'invalid');
    assert.equal(signing.verify({ text: 'not json' }, signature), 'invalid');
    assert.equal(signing.verify({ text: body }, undefined), 'unsigned');
  });

  it('accepts the previous key during a rotation, and signs with the new one', () => {
    const old = new MessageSigning(settings('require', [OLD_KEY]));
    const rotating = new MessageSigning(settings('require', [KEY, OLD_KEY]));
    assert.equal(rotating.verify({ text: body }, old.sign(body)), 'valid');
    assert.equal(rotating.sign(body), signature);
  });

  it('require drops unsigned messages, sign (mixed fleets) obeys them; both drop bad signatures', () => {
    assert.equal(signing.rejects('unsigned'), 'unsigned');
    assert.equal(signing.rejects('invalid'), 'bad-signature');
    assert.equal(signing.rejects('valid'), undefined);
    const mixed = new MessageSigning(settings('sign'));
    assert.equal(mixed.rejects('unsigned'), undefined);
    assert.equal(mixed.rejects('invalid'), 'bad-signature');
  });

  it('drops a signed event seen before, or older than max-age', () => {
    let now = 1_000_000;
    const guarded = new MessageSigning(settings('require'), () => now);
    const event = { ...createRefreshEvent('a:1:x'), timestamp: now };
    assert.equal(guarded.replayed(event), undefined);
    assert.equal(guarded.replayed(event), 'replayed');
    now += 60_001;
    assert.equal(guarded.replayed({ ...event, id: 'another' }), 'stale');
    // Long after, the id is forgotten but the event is too old anyway.
    assert.equal(guarded.replayed(event), 'stale');
  });
});
