/**
 * The JDBC backend's property sources, as Spring's JdbcEnvironmentRepository.findOne makes them: for each
 * profile (last first), `{application}-{profile}` then `application-{profile}` from `sql`; then `{application}`
 * and `application` from `sql-without-profile`; a source only when its query returned rows. `application` is
 * added in front of the names unless the requested name starts with "application" (Spring's test, kept).
 * When only `sql` is customised, Spring's "config incomplete" mode applies: profile `default` is always
 * included (first, so it loses) and rows without profile are not read.
 */
import type { PropertySource, PropertyValue } from '@confbus/core';
import type { PropertySourceQuery } from '../environment/config-repository.js';
import type { PropertySourceStore } from '../database/database-repository.js';
import { DEFAULT_SQL, DEFAULT_SQL_WITHOUT_PROFILE } from './jdbc-settings.js';
import type { SqlClient } from './sql-clients.js';

export interface JdbcQueries {
  sql: string;
  sqlWithoutProfile: string;
  failOnError: boolean;
}

/** One query of a findOne: the source it makes, and the parameters in JDBC order. */
export interface PlannedQuery {
  name: string;
  withProfile: boolean;
  parameters: string[];
}

/** Spring's JdbcEnvironmentProperties.isConfigIncomplete: sql customised, sql-without-profile not. */
export function isConfigIncomplete(queries: Pick<JdbcQueries, 'sql' | 'sqlWithoutProfile'>): boolean {
  return queries.sql !== DEFAULT_SQL && queries.sqlWithoutProfile === DEFAULT_SQL_WITHOUT_PROFILE;
}

/** The queries of one findOne, highest precedence first. */
export function planJdbcQueries(
  query: PropertySourceQuery,
  queries: Pick<JdbcQueries, 'sql' | 'sqlWithoutProfile'>,
): PlannedQuery[] {
  const incomplete = isConfigIncomplete(queries);
  let profile = query.profiles.join(',');
  if (profile.trim() === '') profile = 'default';
  if (incomplete && !profile.startsWith('default')) profile = `default,${profile}`;
  let config = query.applications.join(',');
  if (!config.startsWith('application')) config = `application,${config}`;
  const applications = [...new Set(splitSpringList(config))].reverse();
  const profiles = [...new Set(splitSpringList(profile))].reverse();
  const planned: PlannedQuery[] = [];
  for (const env of profiles) {
    for (const app of applications) {
      planned.push({ name: `${app}-${env}`, withProfile: true, parameters: [app, env, query.label] });
    }
  }
  if (!incomplete) {
    for (const app of applications) {
      planned.push({ name: app, withProfile: false, parameters: [app, query.label] });
    }
  }
  return planned;
}

/** Spring's StringUtils.commaDelimitedListToStringArray: split on commas, nothing trimmed, empties kept. */
function splitSpringList(text: string): string[] {
  return text.split(',');
}

export class JdbcStore implements PropertySourceStore {
  constructor(
    private readonly client: SqlClient,
    private readonly queries: JdbcQueries,
    readonly description: string,
  ) {}

  async read(query: PropertySourceQuery): Promise<PropertySource[]> {
    const sources: PropertySource[] = [];
    for (const planned of planJdbcQueries(query, this.queries)) {
      const sql = planned.withProfile ? this.queries.sql : this.queries.sqlWithoutProfile;
      let pairs: Array<[string | null, string | null]>;
      try {
        pairs = await this.client.pairs(sql, planned.parameters);
      } catch (error) {
        // fail-on-error=false: Spring leaves the source out (logging at debug) and serves the rest.
        if (this.queries.failOnError) throw error;
        continue;
      }
      const source = new Map<string, PropertyValue>();
      for (const [key, value] of pairs) {
        // A null value is served as null, as Spring's map holds it (`"key": null`; `key: null` rendered). A null
        // key, which Spring's JSON writer cannot write (a 500 there), leaves the row out.
        if (key !== null) source.set(key, value);
      }
      if (source.size > 0) sources.push({ name: planned.name, source });
    }
    return sources;
  }

  ping(): Promise<void> {
    return this.client.ping();
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
