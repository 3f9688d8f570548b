/**
 * HMAC-SHA256 signatures on bus messages (confbus.bus.signing.*, see bus-signing-settings.ts in core). The
 * signature travels in a message header (`confbus-signature`: an AMQP header, a Kafka record header), which Spring
 * nodes carry along and ignore, so signed events still reach them unchanged.
 *
 * What is signed is the event's JSON as `JSON.stringify(JSON.parse(body))`: rabbitmq-client hands an
 * application/json body over already parsed, so the receiver cannot see the sender's bytes; parsing and
 * stringifying is deterministic on both sides (key order and numbers come out the same), whatever version of
 * confbus encoded the event. The freshness of a signed event (its `timestamp`, which the signature covers) and a
 * memory of ids seen stop a captured message from being replayed later (replay-guard.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BusEvent, BusSigningSettings } from '@confbus/core';
import type { InboundBody } from '../transport.js';
import { ReplayGuard } from './replay-guard.js';

export const SIGNATURE_HEADER = 'confbus-signature';
const VERSION = 'v1=';

/** What the check of one inbound message found. */
export type SignatureVerdict = 'valid' | 'unsigned' | 'invalid';

/** Why a message was not obeyed (the label of confbus_bus_messages_rejected_total). */
export type Rejection = 'unsigned' | 'bad-signature' | 'stale' | 'replayed';

/** Why each rejected message was not obeyed, as the `dropped bus message` line says. */
export const REJECTION_REASONS: Readonly<Record<Rejection, string>> = {
  unsigned: 'the message is not signed and confbus.bus.signing.mode=require',
  'bad-signature':
    'the signature does not verify with confbus.bus.signing.key (forged, altered or another key)',
  stale: 'the signed event is older than confbus.bus.signing.max-age (a replay, or clocks out of sync)',
  replayed: 'the signed event was received before (a replay)',
};

export class MessageSigning {
  readonly #keys: readonly Buffer[];
  readonly #replays: ReplayGuard;

  constructor(
    readonly settings: BusSigningSettings,
    now: () => number = Date.now,
  ) {
    this.#keys = settings.keys.map((key) => Buffer.from(key, 'utf8'));
    this.#replays = new ReplayGuard(settings.maxAgeMs, now);
  }

  get enabled(): boolean {
    return this.settings.mode !== 'off' && this.#keys.length > 0;
  }

  /** The header value for an outgoing body; undefined when signing is off. */
  sign(body: string): string | undefined {
    const key = this.#keys[0];
    if (!this.enabled || key === undefined) return undefined;
    return VERSION + mac(key, canonical(JSON.parse(body))).toString('base64url');
  }

  /** Checks `signature` (the header's value, if any) against the body, with every accepted key. */
  verify(body: InboundBody, signature: string | undefined): SignatureVerdict {
    if (signature === undefined || signature === '') return 'unsigned';
    if (!signature.startsWith(VERSION)) return 'invalid';
    const given = Buffer.from(signature.slice(VERSION.length), 'base64url');
    let text: string;
    try {
      text = canonical(parsedBody(body));
    } catch {
      return 'invalid';
    }
    for (const key of this.#keys) {
      const expected = mac(key, text);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return 'valid';
    }
    return 'invalid';
  }

  /** Why a message with this verdict may not be handled in this mode; undefined when it may. */
  rejects(verdict: SignatureVerdict): Rejection | undefined {
    if (!this.enabled || verdict === 'valid') return undefined;
    if (verdict === 'invalid') return 'bad-signature';
    return this.settings.mode === 'sign' ? undefined : 'unsigned';
  }

  /** For a validly signed event: why it is a replay (too old, already seen), or undefined. */
  replayed(event: BusEvent): Rejection | undefined {
    const verdict = this.#replays.check(event);
    return verdict === 'fresh' ? undefined : verdict;
  }
}

function mac(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text, 'utf8').digest();
}

function canonical(value: unknown): string {
  return JSON.stringify(value);
}

function parsedBody(body: InboundBody): unknown {
  if ('json' in body) return body.json;
  const text = 'text' in body ? body.text : Buffer.from(body.bytes).toString('utf8');
  return JSON.parse(text);
}
