/**
 * The Redis backend's settings (`spring.profiles.active=redis`, docs/repositories.md): Spring Boot's connection
 * keys (`spring.data.redis.*`, Boot 3+) and Spring's `spring.cloud.config.server.redis.order`; `refresh-rate`
 * is confbus's own (Spring reads the hashes on every request).
 */
import type { SettingSpec, Settings } from '@confbus/core';
import { DEFAULT_ORDER } from '../jdbc/jdbc-settings.js';

export const REDIS = 'spring.cloud.config.server.redis';
const CONNECTION = 'spring.data.redis';

export const redisSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${CONNECTION}.url`,
    type: 'string',
    secret: true,
    description:
      'With the redis profile: redis://[user:password@]host:port[/database] (rediss:// for TLS); wins over host and port',
  },
  {
    key: `${CONNECTION}.host`,
    type: 'string',
    default: 'localhost',
    description: 'With the redis profile: the Redis host',
  },
  {
    key: `${CONNECTION}.port`,
    type: 'integer',
    default: 6379,
    min: 1,
    max: 65535,
    description: 'With the redis profile: the Redis port',
  },
  {
    key: `${CONNECTION}.username`,
    type: 'string',
    description: 'With the redis profile: the Redis user (ACL)',
  },
  {
    key: `${CONNECTION}.password`,
    type: 'string',
    secret: true,
    description: 'With the redis profile: the Redis password',
  },
  {
    key: `${CONNECTION}.database`,
    type: 'integer',
    default: 0,
    min: 0,
    description: 'With the redis profile: the database index',
  },
  {
    key: `${CONNECTION}.ssl.enabled`,
    type: 'boolean',
    default: false,
    description: 'With the redis profile: connect over TLS',
  },
  {
    key: `${REDIS}.order`,
    type: 'integer',
    default: DEFAULT_ORDER,
    description: 'Precedence among several backends: lower wins, as in Spring',
  },
  {
    key: `${REDIS}.refresh-rate`,
    type: 'integer',
    default: 0,
    description:
      'confbus: seconds between checks that the hashes served are unchanged (0 = before every request, shared; <0 = only on POST /monitor)',
  },
];

export interface RedisConnectionSettings {
  readonly url: string | undefined;
  readonly host: string;
  readonly port: number;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly database: number;
  readonly tls: boolean;
}

export interface RedisSettings extends RedisConnectionSettings {
  readonly order: number;
  readonly refreshRateSeconds: number;
}

export function readRedisSettings(settings: Settings): RedisSettings {
  return {
    url: settings.optionalString(`${CONNECTION}.url`),
    host: settings.string(`${CONNECTION}.host`),
    port: settings.number(`${CONNECTION}.port`),
    username: settings.optionalString(`${CONNECTION}.username`),
    password: settings.optionalString(`${CONNECTION}.password`),
    database: settings.number(`${CONNECTION}.database`),
    tls: settings.boolean(`${CONNECTION}.ssl.enabled`),
    order: settings.number(`${REDIS}.order`),
    refreshRateSeconds: settings.number(`${REDIS}.refresh-rate`),
  };
}
