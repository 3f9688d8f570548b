/** The database backends (JDBC, Redis) as the repository port: their store behind a DatabaseRepository. */
import type { Logger } from '@confbus/core';
import { DatabaseRepository, type PropertySourceStore } from '../database/database-repository.js';
import { lazyStore } from '../database/lazy-store.js';
import { JdbcStore } from '../jdbc/jdbc-store.js';
import type { JdbcSettings } from '../jdbc/jdbc-settings.js';
import { parseJdbcUrl } from '../jdbc/jdbc-url.js';
import { openSqlClient } from '../jdbc/sql-clients.js';
import { openRedis, RedisStore } from '../redis/redis-store.js';
import type { RedisSettings } from '../redis/redis-settings.js';
import type { DatabaseBackendSettings } from './backend-settings.js';
import type { OpenedMirror } from './repository-stores.js';

export function openDatabase(settings: DatabaseBackendSettings, logger: Logger): OpenedMirror {
  const child = logger.child({ component: settings.kind });
  if (settings.kind === 'jdbc') return openJdbc(settings.jdbc, child);
  return openRedisBackend(settings.redis, child);
}

export function openJdbc(settings: JdbcSettings, logger: Logger): OpenedMirror {
  const target = parseJdbcUrl(settings.url ?? '', settings);
  const store = lazyStore(target.display, async () => {
    const client = await openSqlClient(target);
    if (settings.notifyChannel !== undefined && client.listen) {
      const channel = settings.notifyChannel;
      await client.listen(
        channel,
        // A notification checks at once (the store is opened by the repository, which exists by then).
        () => void repository.refreshNow(),
        (error) => logger.warn({ err: error, channel }, 'PostgreSQL LISTEN connection failed'),
      );
    }
    return new JdbcStore(client, settings, target.display);
  });
  const repository = databaseRepository(store, settings.defaultLabel, settings.refreshRateSeconds, logger);
  return opened(repository, target.display);
}

export function openRedisBackend(settings: RedisSettings, logger: Logger): OpenedMirror {
  let description = settings.url === undefined ? `redis://${settings.host}:${settings.port}` : 'redis';
  const store = lazyStore(description, async () => {
    const redis = await openRedis(settings);
    description = redis.description;
    return new RedisStore(redis.hashes, redis.description);
  });
  // Spring's Redis backend has no default label: the request's (or none) is all it sees.
  return opened(databaseRepository(store, '', settings.refreshRateSeconds, logger), description);
}

function databaseRepository(
  store: PropertySourceStore,
  defaultLabel: string,
  refreshRateSeconds: number,
  logger: Logger,
): DatabaseRepository {
  return new DatabaseRepository({ store, defaultLabel, refreshRateSeconds, logger });
}

function opened(repository: DatabaseRepository, displayUri: string): OpenedMirror {
  return { mirror: repository, displayUri, searchPaths: [], close: () => repository.close() };
}
