import type { Client, EventDetails, ProviderEvents } from '@openfeature/server-sdk';

/** The client's start-up lines are not what these tests look at. */
export { silentLogger as quietLogger } from '@confbus/core';

/** Every event of `type` the OpenFeature client sees, and a promise of the next one. */
export function recordEvents(client: Client, type: ProviderEvents) {
  const seen: EventDetails[] = [];
  let waiters: Array<(details: EventDetails) => void> = [];
  client.addHandler(type, (details) => {
    const event = details ?? ({} as EventDetails);
    seen.push(event);
    const current = waiters;
    waiters = [];
    for (const resolve of current) resolve(event);
  });
  return {
    seen,
    next: () => new Promise<EventDetails>((resolve) => waiters.push(resolve)),
  };
}
