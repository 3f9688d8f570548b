/**
 * Spring Cloud Bus events and their JSON wire format (Jackson 2 with `@JsonTypeInfo(use=NAME, property="type")`).
 * Field order matches what Jackson writes: the type id, then ApplicationEvent's `timestamp`, then the fields of
 * RemoteApplicationEvent and of the subclass in declaration order. Reading a message is bus-event-decoder.ts.
 */
import { randomUUID } from 'node:crypto';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import { normalizeDestination } from './service-matcher.js';

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
  /**
   * Not in Spring: whether a confbus client applied the refresh it acks, or kept its configuration
   * (`rejected`: its own schema refused the new values, or the refresh failed). Absent from Spring nodes' acks.
   */
  readonly outcome?: RefreshOutcome;
  /** Not in Spring: why a `rejected` refresh was not applied (no values, bounded length). */
  readonly reason?: string;
}

export type RefreshOutcome = 'applied' | 'rejected';

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

export function isRefreshEvent(e: BusEvent): e is RefreshBusEvent {
  return e.type === REFRESH_EVENT_TYPE;
}

export function isAckEvent(e: BusEvent): e is AckBusEvent {
  return e.type === ACK_EVENT_TYPE;
}

/** Whether an ack answers a refresh event (its `event` is the refresh event's Java class name, as Spring writes). */
export function acksRefresh(ack: AckBusEvent): boolean {
  return ack.event === `${SPRING_BUS_EVENT_PACKAGE}.${REFRESH_EVENT_TYPE}`;
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
    if (e.outcome !== undefined) out.outcome = e.outcome;
    if (e.reason !== undefined) out.reason = e.reason;
  } else if (isEnvironmentChangeEvent(e)) {
    out.values = e.values;
  } else if ('extra' in e) {
    for (const [k, v] of Object.entries(e.extra)) if (!(k in out)) out[k] = v;
  }
  return JSON.stringify(out);
}
