/**
 * Bus addressing as Spring Cloud Bus does it: destinations are AntPathMatcher patterns with ":" as separator,
 * matched against service ids of the form `app[:profiles]:index:random` (see PathServiceMatcher,
 * DefaultBusPathMatcher and PathDestinationFactory).
 */
import { randomBytes } from 'node:crypto';
import { antMatch } from './ant-path-matcher.js';
import type { BusEvent } from './bus-event.js';

/** The destination that addresses every service. */
export const ALL_SERVICES = '**';

/** PathDestinationFactory: `null` → `**`; `foo` → `foo:**`; `customers:9000` → `customers:9000:**`. */
export function normalizeDestination(d?: string | null): string {
  if (d === undefined || d === null) return ALL_SERVICES;
  const colons = d.split(':').length - 1;
  if (d !== ALL_SERVICES && colons <= 1 && !d.endsWith(':**')) return `${d}:**`;
  return d;
}

/** Plain AntPathMatcher match with ":" as the separator. */
export function matchesServicePattern(pattern: string, serviceId: string): boolean {
  return antMatch(pattern, serviceId);
}

/**
 * DefaultBusPathMatcher: a plain match, or, for an id whose second part lists several profiles
 * (`app:dev,db:8080:x`), a match of any of the ids with one of those profiles (`app:dev:8080:x`, `app:db:8080:x`).
 */
function busMatch(pattern: string, serviceId: string): boolean {
  return antMatch(pattern, serviceId) || singleProfileIds(serviceId).some((id) => antMatch(pattern, id));
}

/** The ids with one profile each for a multi-profile id (`app:dev,db:8080:x`); none for other ids. */
function singleProfileIds(serviceId: string): string[] {
  // Spring tokenises with trimming and without empty tokens here.
  const tokens = serviceId
    .split(':')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  if (tokens.length <= 1) return [];
  const profiles = tokens[1]!
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  if (profiles.length <= 1) return [];
  return profiles.map((profile) => [tokens[0], profile, ...tokens.slice(2)].join(':'));
}

/** Whether a destination addresses the node with bus id `busId`: blank (everyone), or a match of the id. */
export function addresses(destination: string, busId: string): boolean {
  return destination.trim() === '' || busMatch(destination, busId);
}

/**
 * Whether this node (bus id `busId`) should handle the event: blank destination, a match of the bus id, or a
 * match of one of the `spring.cloud.config.name` entries with the bus id's `:profiles:index:random` appended.
 */
export function isForSelf(e: BusEvent, busId: string, configNames: readonly string[] = []): boolean {
  const destination = e.destinationService;
  if (addresses(destination, busId)) return true;
  const colon = busId.indexOf(':');
  const suffix = colon >= 0 ? busId.slice(colon) : '';
  return configNames.some((name) => busMatch(destination, name + suffix));
}

/**
 * Whether the event was sent by this node. Spring matches the origin as a *pattern* against the bus id, so an
 * event whose origin is `**` counts as everyone's own and is ignored by every Spring node; an origin is an id,
 * not an address, so here it is compared as one: equal to the bus id or to one of its single-profile forms
 * (which is all Spring's match can mean for a real id).
 */
export function isFromSelf(e: BusEvent, busId: string): boolean {
  return e.originService === busId || singleProfileIds(busId).includes(e.originService);
}

export interface BusIdParts {
  applicationName?: string;
  profiles?: string[];
  port?: number | string;
  /** Random instance part; a fresh 32-hex-digit value (like Spring's `cachedrandom`) when absent. */
  random?: string;
}

/** `app[:profile1,profile2]:port:random`, defaulting to `application` and 8080 as Spring does. */
export function defaultBusId(o: BusIdParts): string {
  const app = o.applicationName?.trim() || 'application';
  const profiles = (o.profiles ?? []).map((p) => p.trim()).filter((p) => p.length > 0);
  const name = profiles.length > 0 ? `${app}:${profiles.join(',')}` : app;
  const index = o.port === undefined || o.port === '' ? 8080 : o.port;
  const random = o.random ?? randomBytes(16).toString('hex');
  return `${name}:${index}:${random}`;
}
