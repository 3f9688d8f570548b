/**
 * The running instances a change reaches, from a config server's fleet view (`GET /-/console/api/fleet`, the
 * instances it knows from the bus), for `confbus check --impact --server URL`. Credentials in the URL
 * (`https://user:password@host`) are sent as basic auth and never printed.
 */
import { ConfbusError, type ConsoleFleet, type ConsoleInstance, coreErrors } from '@confbus/core';
import type { CheckTarget } from '@confbus/contracts';

/** The console API's largest page. */
const PAGE = 500;
const TIMEOUT_MS = 10_000;

export class FleetUnavailableError extends ConfbusError {
  override readonly name = 'FleetUnavailableError';
  constructor(message: string) {
    super(coreErrors.CONFBUS_FLEET_UNAVAILABLE, message);
  }
}

/** The instances of each application, as the server's fleet view lists them. */
export async function fleetInstances(
  server: URL,
  applications: readonly string[],
): Promise<ConsoleInstance[]> {
  const base = new URL(server);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (base.username !== '' || base.password !== '') {
    const user = decodeURIComponent(base.username);
    const password = decodeURIComponent(base.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    base.username = '';
    base.password = '';
  }
  const instances: ConsoleInstance[] = [];
  for (const application of [...new Set(applications)]) {
    for (let offset = 0; ; offset += PAGE) {
      const url = new URL(`${base.pathname.replace(/\/+$/, '')}/-/console/api/fleet`, base);
      url.search = new URLSearchParams({
        application,
        offset: String(offset),
        limit: String(PAGE),
      }).toString();
      const fleet = await getFleet(url, headers);
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

async function getFleet(url: URL, headers: Record<string, string>): Promise<ConsoleFleet> {
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new FleetUnavailableError(`${url.origin}: the fleet view cannot be read: ${describe(error)}`);
  }
  if (response.status !== 200)
    throw new FleetUnavailableError(`${url.origin}: GET ${url.pathname} answered ${response.status}`);
  const body = (await response.json().catch(() => undefined)) as ConsoleFleet | undefined;
  if (!Array.isArray(body?.items) || typeof body.total !== 'number')
    throw new FleetUnavailableError(`${url.origin}: GET ${url.pathname} did not answer a fleet view`);
  return body;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return cause ?? (error instanceof Error ? error.message : String(error));
}
