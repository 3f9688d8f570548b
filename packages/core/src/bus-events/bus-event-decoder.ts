/**
 * Reading a bus message as Spring's bus mapper (Jackson) would: any naming strategy for the field names, the
 * type id choosing the event class, unknown types kept whole (UnknownRemoteApplicationEvent), and every field
 * checked, so what anyone on the broker sends is either a well-formed event or a BusMessageError.
 */
import {
  ACK_EVENT_TYPE,
  BusMessageError,
  ENVIRONMENT_CHANGE_EVENT_TYPE,
  REFRESH_EVENT_TYPE,
  type BusEvent,
  type RefreshOutcome,
} from './bus-event.js';
import { ALL_SERVICES } from './service-matcher.js';

/**
 * Longest text accepted in a string field of a bus message (ids, destinations, the event class). Real values
 * are a few dozen characters; a message with a longer one is malformed (and dropped), so no node keeps or
 * matches megabyte-long ids that anyone on the broker could send.
 */
export const MAX_BUS_FIELD_LENGTH = 1024;

/** Canonical key for any Jackson naming strategy: originService, origin_service, origin-service, OriginService. */
function canonicalKey(key: string): string {
  return key.replace(/[_\-.]/g, '').toLowerCase();
}

/** Fields every event has. */
const BASE_FIELDS = ['type', 'timestamp', 'originService', 'destinationService', 'id'];
/** Fields of the known event types beyond the base (an unknown event keeps them as extras). */
const TYPED_FIELDS = [
  'ackId',
  'ackDestinationService',
  'event',
  'configVersion',
  'outcome',
  'reason',
  'values',
];

const FIELD_BY_CANONICAL_KEY = new Map([...BASE_FIELDS, ...TYPED_FIELDS].map((f) => [canonicalKey(f), f]));

export function decodeBusEvent(body: string | Uint8Array): BusEvent {
  const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: false }).decode(body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new BusMessageError(`bus message is not valid JSON: ${(err as Error).message}`);
  }
  return busEventFromJson(parsed);
}

/**
 * The same as decodeBusEvent for a body that is already parsed (AMQP clients parse application/json bodies):
 * every node sees every message, including every other node's acks, so parsing each one once matters.
 */
export function busEventFromJson(parsed: unknown): BusEvent {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new BusMessageError(`bus message must be a JSON object, got ${describe(parsed)}`);
  }
  const fields: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const field = FIELD_BY_CANONICAL_KEY.get(canonicalKey(key));
    if (field) fields[field] = value;
    else extra[key] = value;
  }

  const type = requireString(fields, 'type');
  const base = {
    timestamp: requireTimestamp(fields.timestamp),
    originService: requireString(fields, 'originService'),
    // Jackson sets the field as sent (no normalisation); an absent or null one reads as "everyone".
    destinationService: optionalString(fields, 'destinationService') ?? ALL_SERVICES,
    id: requireString(fields, 'id'),
  };
  switch (type) {
    case REFRESH_EVENT_TYPE: {
      const configVersion = optionalVersion(fields.configVersion);
      return { type, ...base, ...(configVersion === undefined ? {} : { configVersion }) };
    }
    case ACK_EVENT_TYPE: {
      const configVersion = optionalVersion(fields.configVersion);
      return {
        type,
        ...base,
        ackId: requireString(fields, 'ackId'),
        ackDestinationService: requireString(fields, 'ackDestinationService'),
        event: requireString(fields, 'event'),
        ...(configVersion === undefined ? {} : { configVersion }),
        ...refreshOutcome(fields),
      };
    }
    case ENVIRONMENT_CHANGE_EVENT_TYPE:
      return { type, ...base, values: requireValues(fields.values) };
    default: {
      // Fields that are ours by name but not part of the base stay with the unknown event.
      for (const k of TYPED_FIELDS) {
        if (k in fields) extra[k] = fields[k];
      }
      return { type, ...base, extra };
    }
  }
}

/** Ours, not Spring's: a value of the wrong shape is ignored (as Spring ignores it), not a reason to drop the event. */
function optionalVersion(v: unknown): string | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  return checkLength('configVersion', v);
}

/**
 * An ack's outcome and reason, ours (on the bus, and in a watch ack's body): a value of the wrong shape is ignored, as an unknown field would be; a reason
 * is free text, cut to MAX_BUS_FIELD_LENGTH rather than dropping the ack it explains.
 */
export function refreshOutcome(fields: Record<string, unknown>): {
  outcome?: RefreshOutcome;
  reason?: string;
} {
  const { outcome, reason } = fields;
  if (outcome !== 'applied' && outcome !== 'rejected') return {};
  if (typeof reason !== 'string' || reason === '' || outcome === 'applied') return { outcome };
  return { outcome, reason: reason.slice(0, MAX_BUS_FIELD_LENGTH) };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

function requireString(fields: Record<string, unknown>, name: string): string {
  const v = fields[name];
  if (typeof v !== 'string' || v.trim() === '') {
    throw new BusMessageError(
      v === undefined
        ? `bus message has no "${name}" field`
        : `bus message field "${name}" must be a non-empty string, got ${describe(v)}`,
    );
  }
  return checkLength(name, v);
}

function checkLength(name: string, v: string): string {
  if (v.length > MAX_BUS_FIELD_LENGTH) {
    throw new BusMessageError(
      `bus message field "${name}" is ${v.length} characters long, more than ${MAX_BUS_FIELD_LENGTH}`,
    );
  }
  return v;
}

function optionalString(fields: Record<string, unknown>, name: string): string | undefined {
  const v = fields[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') {
    throw new BusMessageError(`bus message field "${name}" must be a string, got ${describe(v)}`);
  }
  return checkLength(name, v);
}

function requireTimestamp(v: unknown): number {
  // Jackson may write longs as strings with WRITE_NUMBERS_AS_STRINGS; accept digits either way.
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw new BusMessageError(
      v === undefined
        ? 'bus message has no "timestamp" field'
        : `bus message field "timestamp" must be epoch milliseconds, got ${describe(v)}`,
    );
  }
  return n;
}

function requireValues(v: unknown): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw new BusMessageError(`bus message field "values" must be an object, got ${describe(v)}`);
  }
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    // Spring's Map<String,String> takes scalars as their text, as Jackson coerces them.
    if (typeof value === 'string') out[k] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[k] = String(value);
    else
      throw new BusMessageError(`bus message field "values.${k}" must be a string, got ${describe(value)}`);
  }
  return out;
}
