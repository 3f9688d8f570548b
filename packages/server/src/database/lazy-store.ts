/**
 * A store whose driver is loaded and connected on first use: the repository port is opened synchronously
 * (repository-stores.ts), and a driver is imported only when its backend is configured.
 */
import type { PropertySourceQuery } from '../environment/config-repository.js';
import type { PropertySourceStore } from './database-repository.js';

export function lazyStore(
  description: string,
  open: () => Promise<PropertySourceStore>,
): PropertySourceStore {
  let opening: Promise<PropertySourceStore> | undefined;
  const store = (): Promise<PropertySourceStore> => {
    opening ??= open().catch((error: unknown) => {
      // Retried on the next use: a driver that failed to load or connect once may work later.
      opening = undefined;
      throw error;
    });
    return opening;
  };
  return {
    description,
    read: async (query: PropertySourceQuery) => (await store()).read(query),
    ping: async () => (await store()).ping(),
    close: async () => {
      if (opening) await (await opening.catch(() => undefined))?.close();
    },
  };
}
