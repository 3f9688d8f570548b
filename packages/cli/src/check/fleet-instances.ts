/**
 * The running instances a change reaches, from a config server's fleet view (`GET /-/console/api/fleet`, the
 * instances it knows from the bus), for `confbus check --impact --server URL`.
 */
import type { ConsoleFleet, ConsoleInstance } from '@confbus/core';
import type { CheckTarget } from '@confbus/contracts';
import type { ConfigServerReads } from './config-server-reads.js';

/** The console API's largest page. */
const PAGE = 500;

/** The instances of each application, as the server's fleet view lists them. */
export async function fleetInstances(
  server: ConfigServerReads,
  applications: readonly string[],
): Promise<ConsoleInstance[]> {
  const instances: ConsoleInstance[] = [];
  for (const application of [...new Set(applications)]) {
    for (let offset = 0; ; offset += PAGE) {
      const query = { application, offset: String(offset), limit: String(PAGE) };
      const fleet = await server.get('/-/console/api/fleet', query, 'a fleet view', isFleet);
      instances.push(...fleet.items);
      if (fleet.items.length === 0 || offset + fleet.items.length >= fleet.total) break;
    }
  }
  return instances;
}

/** The instances a changed environment reaches: same application, and the profile among theirs. */
export function instancesOf(target: CheckTarget, instances: readonly ConsoleInstance[]): ConsoleInstance[] {
  const profile = target.profiles[0] ?? 'default';
  return instances.filter(
    (instance) =>
      instance.application === target.application &&
      (instance.profiles.includes(profile) || (profile === 'default' && instance.profiles.length === 0)),
  );
}

function isFleet(body: unknown): body is ConsoleFleet {
  const fleet = body as Partial<ConsoleFleet> | undefined;
  return Array.isArray(fleet?.items) && typeof fleet.total === 'number';
}
