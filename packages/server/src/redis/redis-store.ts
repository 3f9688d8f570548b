/**
 * The Redis backend's property sources, as Spring's RedisEnvironmentRepository.findOne makes them (5.0.6): the
 * hashes `{application}-{profile}` and `application-{profile}` for each profile (the last first), then
 * `{application}` and `application`; each named `redis:<key>` and present even when the hash is empty or
 * missing. The label is not used (Spring's neither).
 *
 * Client: `@redis/client`, the core of node-redis (the `redis` package without its modules' commands), kept by
 * Redis itself; ioredis is in maintenance and its authors point to node-redis. Loaded only with the redis profile.
 */
import type { PropertySource } from '@confbus/core';
import type { PropertySourceQuery } from '../environment/config-repository.js';
import type { PropertySourceStore } from '../database/database-repository.js';
import type { RedisConnectionSettings } from './redis-settings.js';

/**
 * The hashes of one findOne, highest precedence first. Spring 5.0.6's addKeys: the names are `application` and
 * the requested ones (split on commas, trimmed, blanks and repeats dropped), each profile (as requested, not
 * trimmed) after all names, the whole list reversed.
 */
export function redisKeysOf(query: Pick<PropertySourceQuery, 'applications' | 'profiles'>): string[] {
  const names = [
    ...new Set(
      ['application', ...query.applications.join(',').split(',')]
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  ];
  const keys = [...names];
  for (const profile of query.profiles.join(',').split(',')) {
    for (const name of names) keys.push(`${name}-${profile}`);
  }
  return keys.reverse();
}

/** The few commands the store uses, so the fast tier can stand in for Redis. */
export interface RedisHashes {
  /** The hash's fields in the order Redis lists them (Spring's map keeps that order). */
  hGetAll(key: string): Promise<ReadonlyArray<readonly [string, string]>>;
  ping(): Promise<unknown>;
  close(): Promise<void>;
}

export class RedisStore implements PropertySourceStore {
  constructor(
    private readonly redis: RedisHashes,
    readonly description: string,
  ) {}

  async read(query: PropertySourceQuery): Promise<PropertySource[]> {
    const keys = redisKeysOf(query);
    const hashes = await Promise.all(keys.map((key) => this.redis.hGetAll(key)));
    return keys.map((key, i) => {
      return { name: `redis:${key}`, source: new Map(hashes[i]) };
    });
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  close(): Promise<void> {
    return this.redis.close();
  }
}

/** A node-redis client for the connection settings; `description` names it without credentials. */
export async function openRedis(
  settings: RedisConnectionSettings,
): Promise<{ hashes: RedisHashes; description: string }> {
  const { createClient, RESP_TYPES } = await import('@redis/client');
  const url =
    settings.url ??
    `${settings.tls ? 'rediss' : 'redis'}://${settings.host}:${settings.port}/${settings.database}`;
  const client = createClient({
    url,
    ...(settings.url === undefined && settings.username !== undefined ? { username: settings.username } : {}),
    ...(settings.url === undefined && settings.password !== undefined ? { password: settings.password } : {}),
    // A request fails at once while Redis is down rather than queueing behind the reconnection.
    disableOfflineQueue: true,
  });
  // Reconnection errors are reported by the requests and health that meet them.
  client.on('error', () => undefined);
  const connected = client.connect().catch(() => undefined);
  // A hash's reply as a Map, in the order Redis lists the fields: the default object moves fields like `2` first.
  const ordered = client.withTypeMapping({ [RESP_TYPES.MAP]: Map });
  const parsed = new URL(url);
  const description = `${parsed.protocol}//${parsed.hostname}:${parsed.port || 6379}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  return {
    description,
    hashes: {
      hGetAll: async (key) => {
        await connected;
        return [...((await ordered.hGetAll(key)) as unknown as Map<string, string>)];
      },
      ping: async () => {
        await connected;
        return client.ping();
      },
      close: async () => {
        await connected;
        if (client.isOpen) await client.close();
      },
    },
  };
}
