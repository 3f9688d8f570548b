/**
 * Spring's composite backend (`spring.profiles.active=composite`): the members listed under
 * `spring.cloud.config.server.composite[n]`, each with its `type` (git, native, jdbc, redis) and that backend's
 * own settings beside it (`composite[0].uri`, `composite[1].search-locations`), as Spring's
 * CompositeEnvironmentBeanFactoryPostProcessor binds them. Each member is read by its backend's own reader
 * over the settings with `composite[n].*` moved under the backend's prefix (Settings.rebased); the datasource
 * and Redis connection (spring.datasource.*, spring.data.redis.*) are the server's one, as in Spring.
 */
import { type SettingSpec, type Settings, SettingsError } from '@confbus/core';
import { LOWEST_PRECEDENCE } from '../composite/composite-repository.js';
import { readJdbcSettings } from '../jdbc/jdbc-settings.js';
import { type NativeSettings, readNativeSettings } from '../native/native-settings.js';
import { readRedisSettings } from '../redis/redis-settings.js';
import type { DatabaseBackendSettings } from './backend-settings.js';
import { readRepositorySettings, type RepositorySettings } from './repository-settings.js';

export const COMPOSITE = 'spring.cloud.config.server.composite';
export const FAIL_ON_COMPOSITE_ERROR = 'spring.cloud.config.server.fail-on-composite-error';
const SERVER = 'spring.cloud.config.server';
const TYPES = ['git', 'native', 'jdbc', 'redis'] as const;
type MemberType = (typeof TYPES)[number];
/** Spring's JdbcEnvironmentProperties order: a JDBC member without one sorts before the others without one. */
const JDBC_DEFAULT_ORDER = LOWEST_PRECEDENCE - 10;

export type CompositeMemberSettings = {
  /** `composite[<index>] (<type>)`. */
  readonly name: string;
  readonly order: number;
} & (
  | { readonly type: 'git'; readonly repositories: RepositorySettings }
  | { readonly type: 'native'; readonly native: NativeSettings }
  | { readonly type: 'jdbc' | 'redis'; readonly database: DatabaseBackendSettings }
);

export interface CompositeSettings {
  /** In the order configured (CompositeRepository sorts them by `order`). */
  readonly members: readonly CompositeMemberSettings[];
  readonly failOnError: boolean;
}

export const compositeSettingSpecs: readonly SettingSpec[] = [
  {
    key: COMPOSITE,
    type: 'string',
    isPrefix: true,
    indexed: true,
    description:
      "With spring.profiles.active=composite, the backends served together: composite[n].type=git|native|jdbc|redis, composite[n].order, and that backend's settings under composite[n].* (see docs/repositories.md)",
  },
  {
    key: FAIL_ON_COMPOSITE_ERROR,
    type: 'boolean',
    default: true,
    description:
      'With spring.profiles.active=composite, fail a request when one member fails; false skips the member (its sources are missing from the answer)',
  },
];

/** The composite's members, or undefined without spring.profiles.active=composite. */
export function readCompositeSettings(settings: Settings): CompositeSettings | undefined {
  if (!settings.list('spring.profiles.active').includes('composite')) return undefined;
  const indexes = new Set<number>();
  for (const key of settings.keysUnder(COMPOSITE)) {
    const match = /^spring\.cloud\.config\.server\.composite\[(\d+)\]\./i.exec(key);
    if (match) indexes.add(Number(match[1]));
  }
  if (indexes.size === 0) {
    throw new SettingsError(
      `spring.profiles.active=composite needs members: ${COMPOSITE}[0].type=git|native|jdbc|redis and their settings`,
      COMPOSITE,
      'default',
    );
  }
  // Spring binds the members as a list, which refuses a gap (composite[0] and [2] without [1]) at start.
  const missing = [...Array(Math.max(...indexes) + 1).keys()].find((index) => !indexes.has(index));
  if (missing !== undefined) {
    throw new SettingsError(
      `${COMPOSITE}[${missing}] is missing: members are numbered from 0 without gaps`,
      COMPOSITE,
      'default',
    );
  }
  const members = [...indexes].sort((a, b) => a - b).map((index) => readMember(settings, index));
  return { members, failOnError: settings.boolean(FAIL_ON_COMPOSITE_ERROR) };
}

function readMember(settings: Settings, index: number): CompositeMemberSettings {
  const prefix = `${COMPOSITE}[${index}]`;
  const type = String(settings.get(`${prefix}.type`) ?? '').trim();
  if (!(TYPES as readonly string[]).includes(type)) {
    throw new SettingsError(
      `${prefix}.type must be one of ${TYPES.join(', ')}, got '${type}'`,
      `${prefix}.type`,
      settings.sourceOf(`${prefix}.type`) ?? 'default',
    );
  }
  const memberType = type as MemberType;
  const name = `composite[${index}] (${memberType})`;
  const order = orderOf(settings, prefix, memberType);
  const own = settings.rebased(prefix, `${SERVER}.${memberType}`);
  switch (memberType) {
    case 'git': {
      const repositories = readRepositorySettings(own);
      if (repositories.defaultRepository.uri === '') {
        throw new SettingsError(`${prefix}.uri is required for a git member`, `${prefix}.uri`, 'default');
      }
      return { name, order, type: memberType, repositories };
    }
    case 'native':
      return { name, order, type: memberType, native: readNativeSettings(own) };
    case 'jdbc': {
      const jdbc = readJdbcSettings(own);
      if (jdbc.url === undefined) {
        throw new SettingsError(
          `${prefix}.type=jdbc needs spring.datasource.url (the server's one datasource)`,
          'spring.datasource.url',
          'default',
        );
      }
      return {
        name,
        order,
        type: memberType,
        database: { kind: 'jdbc', jdbc, redis: readRedisSettings(own) },
      };
    }
    case 'redis':
      return {
        name,
        order,
        type: memberType,
        database: { kind: 'redis', jdbc: readJdbcSettings(own), redis: readRedisSettings(own) },
      };
  }
}

/** The member's `order`, else its backend's default (JDBC's LOWEST_PRECEDENCE - 10, the others' LOWEST_PRECEDENCE). */
function orderOf(settings: Settings, prefix: string, type: MemberType): number {
  const text = settings.get(`${prefix}.order`);
  if (text === undefined || text === '') return type === 'jdbc' ? JDBC_DEFAULT_ORDER : LOWEST_PRECEDENCE;
  const order = Number(text);
  if (!Number.isInteger(order)) {
    throw new SettingsError(
      `${prefix}.order must be an integer, got '${String(text)}'`,
      `${prefix}.order`,
      settings.sourceOf(`${prefix}.order`) ?? 'default',
    );
  }
  return order;
}
