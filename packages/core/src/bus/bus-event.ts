/**
 * Spring Cloud Bus events and their JSON wire format (Jackson 2 with `@JsonTypeInfo(use=NAME, property="type")`).
 * Field order matches what Jackson writes: the type id, then ApplicationEvent's `timestamp`, then the fields of
 * RemoteApplicationEvent and of the subclass in declaration order.
 */
import { randomUUID } from 'node:crypto';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import { ALL_SERVICES, normalizeDestination } from './service-matcher.js';

export const REFRESH_EVENT_TYPE = 'RefreshRemoteApplicationEvent';
export const ACK_EVENT_TYPE = 'AckRemoteApplicationEvent';
export const ENVIRONMENT_CHANGE_EVENT_TYPE = 'EnvironmentChangeRemoteApplicationEvent';
/** Spring's ShutdownRemoteApplicationEvent: no fields beyond the base ones; targeted nodes shut down. */
export const SHUTDOWN_EVENT_TYPE = 'ShutdownRemoteApplicationEvent';
/** Java package of Spring's bus events; an ack names the acked event's class in it. */
export const SPRING_BUS_EVENT_PACKAGE = 'org.springframework.cloud.bus.event';

interface BusEventBase {
  /** Epoch milliseconds. */
  readonly timestamp: number;
  readonly originService: string;
  /** Normalised destination pattern, e.g. `**` or `foo:**`. */
  readonly destinationService: string;
  /** UUID. */
  readonly id: string;
}

export interface RefreshBusEvent extends BusEventBase {
  readonly type: typeof REFRESH_EVENT_TYPE;
  /**
   * Not in Spring: the commit this refresh announces (the version hint). A confbus client re-fetching because of
   * the event asks its server for at least this commit. Spring's bus mapper ignores unknown properties, so Spring
   * nodes refresh as before; written only when set, so Spring-shaped events stay byte-identical.
   */
  readonly configVersion?: string;
}

export interface AckBusEvent extends BusEventBase {
  readonly type: typeof ACK_EVENT_TYPE;
  /** Id of the acknowledged event. */
  readonly ackId: string;
  /** Destination of the acknowledged event. */
  readonly ackDestinationService: string;
  /** Fully qualified Java class name of the acknowledged event. */
  readonly event: string;
  /**
   * Not in Spring: the config version (commit) the acking service now serves. Spring ignores unknown fields,
   * so sending it is harmless; written only when set, so Spring-shaped acks stay byte-identical.
   */
  readonly configVersion?: string;
}

export interface EnvironmentChangeBusEvent extends BusEventBase {
  readonly type: typeof ENVIRONMENT_CHANGE_EVENT_TYPE;
  readonly values: Readonly<Record<string, string>>;
}

/** Any other event type (Spring's UnknownRemoteApplicationEvent); its extra fields are kept for re-encoding. */
export interface UnknownBusEvent extends BusEventBase {
  readonly type: string;
  readonly extra: Readonly<Record<string, unknown>>;
}

export type BusEvent = RefreshBusEvent | AckBusEvent | EnvironmentChangeBusEvent | UnknownBusEvent;

/** A bus message that cannot be read as a Spring Cloud Bus event. */
export class BusMessageError extends ConfbusError<'CONFBUS_BAD_BUS_MESSAGE'> {
  override readonly name = 'BusMessageError';
  constructor(message: string) {
    super(coreErrors.CONFBUS_BAD_BUS_MESSAGE, message);
  }
}

/**
 * Longest text accepted in a string field of a bus message (ids, destinations, the event class). Real values
 * are a few dozen characters; a message with a longer one is malformed (and dropped), so no node keeps or
 * matches megabyte-long ids that anyone on the broker could send.
 */
export const MAX_BUS_FIELD_LENGTH = 1024;

export function isRefreshEvent(e: BusEvent): e is RefreshBusEvent {
  return e.type === REFRESH_EVENT_TYPE;
}

export function isAckEvent(e: BusEvent): e is AckBusEvent {
  return e.type === ACK_EVENT_TYPE;
}

export function isEnvironmentChangeEvent(e: BusEvent): e is EnvironmentChangeBusEvent {
  return e.type === ENVIRONMENT_CHANGE_EVENT_TYPE;
}

export function isShutdownEvent(e: BusEvent): boolean {
  return e.type === SHUTDOWN_EVENT_TYPE;
}

/** Spring's `busenv`: each targeted node sets these properties. */
export function createEnvironmentChangeEvent(
  origin: string,
  values: Readonly<Record<string, string>>,
  destination?: string,
): EnvironmentChangeBusEvent {
  return {
    type: ENVIRONMENT_CHANGE_EVENT_TYPE,
    timestamp: Date.now(),
    originService: origin,
    destinationService: normalizeDestination(destination),
    id: randomUUID(),
    values: { ...values },
  };
}

/** Spring's `busshutdown`: each targeted node shuts down gracefully. */
export function createShutdownEvent(origin: string, destination?: string): UnknownBusEvent {
  return {
    type: SHUTDOWN_EVENT_TYPE,
    timestamp: Date.now(),
    originService: origin,
    destinationService: normalizeDestination(destination),
    id: randomUUID(),
    extra: {},
  };
}

export function createRefreshEvent(
  origin: string,
  destination?: string,
  now: number = Date.now(),
  id: string = randomUUID(),
): RefreshBusEvent {
  return {
    type: REFRESH_EVENT_TYPE,
    timestamp: now,
    originService: origin,
    destinationService: normalizeDestination(destination),
    id,
  };
}

/**
 * The ack Spring's BusConsumer sends for an event it handled: from this node, to `ackDestination` (default `**`),
 * carrying the acked event's id, destination and class.
 */
export function createAckEvent(origin: string, acked: BusEvent, ackDestination?: string): AckBusEvent {
  return {
    type: ACK_EVENT_TYPE,
    timestamp: Date.now(),
    originService: origin,
    destinationService: normalizeDestination(ackDestination),
    id: randomUUID(),
    ackId: acked.id,
    ackDestinationService: acked.destinationService,
    event: eventClassName(acked),
  };
}

const KNOWN_TYPES = new Set([
  REFRESH_EVENT_TYPE,
  ACK_EVENT_TYPE,
  ENVIRONMENT_CHANGE_EVENT_TYPE,
  SHUTDOWN_EVENT_TYPE,
]);

function eventClassName(e: BusEvent): string {
  const simpleName = KNOWN_TYPES.has(e.type) ? e.type : 'UnknownRemoteApplicationEvent';
  return `${SPRING_BUS_EVENT_PACKAGE}.${simpleName}`;
}

export function encodeBusEvent(e: BusEvent): string {
  // Built field by field so the key order is Jackson's, whatever order the caller's object has.
  const out: Record<string, unknown> = {
    type: e.type,
    timestamp: e.timestamp,
    originService: e.originService,
    destinationService: e.destinationService,
    id: e.id,
  };
  if (isRefreshEvent(e)) {
    if (e.configVersion !== undefined) out.configVersion = e.configVersion;
  } else if (isAckEvent(e)) {
    out.ackId = e.ackId;
    out.ackDestinationService = e.ackDestinationService;
    out.event = e.event;
    if (e.configVersion !== undefined) out.configVersion = e.configVersion;
  } else if (isEnvironmentChangeEvent(e)) {
    out.values = e.values;
  } else if ('extra' in e) {
    for (const [k, v] of Object.entries(e.extra)) if (!(k in out)) out[k] = v;
  }
  return JSON.stringify(out);
}

/** Canonical key for any Jackson naming strategy: originService, origin_service, origin-service, OriginService. */
function canonicalKey(key: string): string {
  return key.replace(/[_\-.]/g, '').toLowerCase();
}

const FIELD_BY_CANONICAL_KEY = new Map(
  [
    'type',
    'timestamp',
    'originService',
    'destinationService',
    'id',
    'ackId',
    'ackDestinationService',
    'event',
    'configVersion',
    'values',
  ].map((f) => [canonicalKey(f), f]),
);

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
      };
    }
    case ENVIRONMENT_CHANGE_EVENT_TYPE:
      return { type, ...base, values: requireValues(fields.values) };
    default: {
      // Fields that are ours by name but not part of the base stay with the unknown event.
      for (const k of ['ackId', 'ackDestinationService', 'event', 'configVersion', 'values']) {
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
