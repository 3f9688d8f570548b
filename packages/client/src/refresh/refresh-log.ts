/**
 * The one INFO line a refresh writes, in the words Spring users grep for: `Keys refreshed [...]` (Spring Cloud
 * Bus's RefreshListener) when a bus event asked for it, `Refresh keys changed: [...]` (Spring Cloud's
 * RefreshEventListener) otherwise, and confbus's own explanation when a poll or a reconnected bus found a
 * version no event had announced. The fields carry the versions, the trigger and the time it took.
 */
import type { Logger } from '@confbus/core';

/**
 * Who asked for a refresh: `local` (the API, /actuator/refresh, busenv), `bus` (a refresh event), `poll` (the
 * safety-net poll), `catch-up` (the bus reconnected after an outage), `watch` (a change on the watch stream),
 * `rollout` (a staged rollout's report answer named another commit for this instance).
 */
export type RefreshTrigger = 'local' | 'poll' | 'catch-up' | 'rollout' | 'watch' | 'bus';

/** Callers sharing one refresh: the most telling trigger names it (a bus event's wording wins). */
const PRECEDENCE: readonly RefreshTrigger[] = ['local', 'poll', 'catch-up', 'rollout', 'watch', 'bus'];

export function mergeTriggers(a: RefreshTrigger | undefined, b: RefreshTrigger): RefreshTrigger {
  return a === undefined || PRECEDENCE.indexOf(b) > PRECEDENCE.indexOf(a) ? b : a;
}

export function logRefreshed(
  logger: Logger,
  trigger: RefreshTrigger,
  keys: readonly string[],
  facts: { readonly from: string | null; readonly to: string | null; readonly ms: number },
): void {
  const listed = `[${keys.join(', ')}]`;
  const moved = `moved from version ${facts.from ?? 'none'} to ${facts.to ?? 'none'}`;
  const message =
    trigger === 'bus' || trigger === 'watch'
      ? `Keys refreshed ${listed}`
      : trigger === 'poll'
        ? `Config server ${moved} without a refresh event reaching this client; Keys refreshed ${listed}`
        : trigger === 'rollout'
          ? `Staged rollout: the config server ${moved} for this instance; Keys refreshed ${listed}`
          : trigger === 'catch-up'
            ? `Bus reconnected: the config server ${moved} while the bus was down; Keys refreshed ${listed}`
            : `Refresh keys changed: ${listed}`;
  logger.info({ trigger, version: facts.to, previousVersion: facts.from, ms: facts.ms }, message);
}
