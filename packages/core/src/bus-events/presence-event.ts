/**
 * Fleet presence, beyond Spring Cloud Bus: confbus nodes announce themselves (service id, application,
 * profiles, label, config version, start time) and answer a presence request with an announcement, so the
 * config server can list every instance. Both are ordinary bus events of types Spring does not know: a Spring
 * node reads them as UnknownRemoteApplicationEvent and does nothing with them, except that, like every event
 * addressed to it, it acks a presence request — which is how Spring nodes show up in the fleet too.
 * Announcements are addressed to a destination no service id matches, so nobody acks them.
 */
import { randomUUID } from 'node:crypto';
import { ALL_SERVICES } from './service-matcher.js';
import type { BusEvent, UnknownBusEvent } from './bus-event.js';

export const PRESENCE_EVENT_TYPE = 'ConfbusPresenceRemoteApplicationEvent';
export const PRESENCE_REQUEST_EVENT_TYPE = 'ConfbusPresenceRequestRemoteApplicationEvent';
/** Matches no service id (those always hold a `:`), so no node handles or acks an announcement. */
export const PRESENCE_DESTINATION = 'confbus-presence';

export interface PresenceInfo {
  application: string;
  profiles: readonly string[];
  /** The label the node asks for; null for the server's default. */
  label: string | null;
  /** The commit the node serves; null before it fetched any. */
  configVersion: string | null;
  /** Epoch milliseconds. */
  startedAt: number;
  /** True in the last announcement of a node that is shutting down. */
  leaving: boolean;
  /**
   * The contract the node's bound schemas make (a JSON Schema object, `@confbus/contracts/published`): the
   * config servers' contract gate enforces it on every push. Absent when it binds nothing with a schema.
   */
  contract?: Readonly<Record<string, unknown>>;
}

export interface PresenceAnnouncement extends PresenceInfo {
  /** The node's bus id. */
  service: string;
  /** Epoch milliseconds of the announcement. */
  timestamp: number;
}

// Bounds on what an announcement may carry, so a misbehaving node cannot grow the server's fleet table.
const MAX_TEXT = 200;
const MAX_PROFILES = 32;
/** Largest contract an announcement may carry, in characters of its JSON text. */
export const MAX_PRESENCE_CONTRACT_CHARS = 256 * 1024;

export function createPresenceAnnouncement(
  origin: string,
  info: PresenceInfo,
  now = Date.now(),
): UnknownBusEvent {
  return {
    type: PRESENCE_EVENT_TYPE,
    timestamp: now,
    originService: origin,
    destinationService: PRESENCE_DESTINATION,
    id: randomUUID(),
    extra: {
      application: info.application,
      profiles: [...info.profiles],
      label: info.label,
      configVersion: info.configVersion,
      startedAt: info.startedAt,
      leaving: info.leaving,
      ...(info.contract === undefined ? {} : { contract: info.contract }),
    },
  };
}

/** Asks every node to announce itself (Spring nodes ack it instead). */
export function createPresenceRequest(origin: string, now = Date.now()): UnknownBusEvent {
  return {
    type: PRESENCE_REQUEST_EVENT_TYPE,
    timestamp: now,
    originService: origin,
    destinationService: ALL_SERVICES,
    id: randomUUID(),
    extra: {},
  };
}

export function isPresenceRequest(e: BusEvent): boolean {
  return e.type === PRESENCE_REQUEST_EVENT_TYPE;
}

/** The announcement an event carries, or undefined when it is none or malformed (then it is ignored). */
export function readPresenceAnnouncement(e: BusEvent): PresenceAnnouncement | undefined {
  if (e.type !== PRESENCE_EVENT_TYPE || !('extra' in e)) return undefined;
  const extra = e.extra;
  const application = boundedText(extra.application);
  const profiles = extra.profiles;
  if (application === undefined || e.originService.length > MAX_TEXT) return undefined;
  if (!Array.isArray(profiles) || profiles.length > MAX_PROFILES) return undefined;
  if (!profiles.every((p) => boundedText(p) !== undefined)) return undefined;
  const startedAt =
    typeof extra.startedAt === 'number' && Number.isSafeInteger(extra.startedAt)
      ? extra.startedAt
      : e.timestamp;
  return {
    service: e.originService,
    timestamp: e.timestamp,
    application,
    profiles: profiles as string[],
    label: boundedText(extra.label) ?? null,
    configVersion: boundedText(extra.configVersion) ?? null,
    startedAt,
    leaving: extra.leaving === true,
    ...contractOf(extra.contract),
  };
}

/** A contract within bounds (a JSON object, at most MAX_PRESENCE_CONTRACT_CHARS as JSON), else none. */
function contractOf(value: unknown): { contract?: Record<string, unknown> } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return JSON.stringify(value).length <= MAX_PRESENCE_CONTRACT_CHARS
    ? { contract: value as Record<string, unknown> }
    : {};
}

function boundedText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= MAX_TEXT ? value : undefined;
}
