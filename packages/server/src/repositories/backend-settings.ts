/**
 * Which database backend serves instead of Git (`spring.profiles.active=jdbc` or `redis`), with each one's
 * settings (jdbc/jdbc-settings.ts, redis/redis-settings.ts). As in Spring, the database profile replaces the
 * Git repository (Spring's default Git repository is made only when no other backend is).
 */
import { type Settings, SettingsError } from '@confbus/core';
import { type JdbcSettings, readJdbcSettings } from '../jdbc/jdbc-settings.js';
import { type RedisSettings, readRedisSettings } from '../redis/redis-settings.js';

export type DatabaseKind = 'jdbc' | 'redis';
const DATABASE_KINDS: readonly DatabaseKind[] = ['jdbc', 'redis'];

export interface DatabaseBackendSettings {
  readonly kind: DatabaseKind;
  readonly jdbc: JdbcSettings;
  readonly redis: RedisSettings;
}

/** The database profile's backend, or undefined when Git or native folders serve. */
export function readDatabaseBackendSettings(settings: Settings): DatabaseBackendSettings | undefined {
  const profiles = settings.list('spring.profiles.active');
  const kinds = DATABASE_KINDS.filter((kind) => profiles.includes(kind));
  if (kinds.length === 0) return undefined;
  const others = profiles.filter((profile) => ['native', 'git', ...DATABASE_KINDS].includes(profile));
  if (others.length > 1) {
    throw new SettingsError(
      `spring.profiles.active=${profiles.join(',')}: one backend at a time (${others.join(', ')} named)`,
      'spring.profiles.active',
      settings.sourceOf('spring.profiles.active') ?? 'file',
    );
  }
  const kind = kinds[0]!;
  const jdbc = readJdbcSettings(settings);
  if (kind === 'jdbc' && jdbc.url === undefined) {
    throw new SettingsError(
      'spring.profiles.active=jdbc needs spring.datasource.url (jdbc:postgresql://host:5432/db, jdbc:mariadb://host:3306/db or jdbc:mysql://…)',
      'spring.datasource.url',
      'default',
    );
  }
  if (kind === 'jdbc' && !jdbc.enabled) {
    throw new SettingsError(
      'spring.cloud.config.server.jdbc.enabled=false with spring.profiles.active=jdbc: no backend would serve',
      'spring.cloud.config.server.jdbc.enabled',
      settings.sourceOf('spring.cloud.config.server.jdbc.enabled') ?? 'file',
    );
  }
  return { kind, jdbc, redis: readRedisSettings(settings) };
}
