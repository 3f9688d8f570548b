/**
 * The differential test's database half (issue #25): the real Spring Cloud Config Server 5.0.6 (built with its
 * JDBC and Redis backends, `-Pbackends`) and confbus serve the same data and are asked the same questions, as in
 * spring-differential.test.ts, whose comparison and list of known differences (docs/coming-from-spring.md) this
 * test shares. Six pairs: `jdbc` on PostgreSQL (Spring's default table and queries), `jdbc` on MariaDB (the
 * same rows; the queries with backticks, as MariaDB needs), `redis` (the same data as hashes), `composite`
 * (git, jdbc, redis and native members, two git ones, two with an order of their own), and a composite whose
 * git member's repository does not exist, with `fail-on-composite-error` false and true. Both servers of a pair read the same
 * database, key prefix and repository; each test run has a database and a Redis key prefix of its own.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  MARIADB,
  POSTGRES,
  REDIS_URL,
  type TestDatabase,
  type TestRedis,
  createMariaDbDatabase,
  createPostgresDatabase,
  createRedisPrefix,
} from '@confbus/testkit/databases';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type GitHttpServer, startGitHttpServer } from '@confbus/testkit/git-http';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import {
  SPRING_CONFIG_SERVER_BACKENDS_GOALS,
  buildSpringPeer,
  startSpringApp,
} from '@confbus/testkit/spring-peers';
import { type RunningServer, startServer, stopFleet } from '../support/fleet.js';
import {
  type Difference,
  type Endpoints,
  compareEnvironment,
  compareOrigins,
  compareRendered,
} from './differential/compare.js';
import {
  DB_APP,
  type Row,
  createTable,
  hashes,
  insertStatements,
  jdbcRenderings,
  jdbcRequests,
  memberDownRequests,
  redisRenderings,
  redisRequests,
} from './differential/database-cases.js';
import { readKnownDifferences } from './differential/known-differences.js';
import { skipWithoutJava } from './support/spring-fleet.js';

const ENCRYPT_KEY = 'differential backends key';
const BACKTICK_SQL = 'SELECT `KEY`, `VALUE` from PROPERTIES where APPLICATION=? and PROFILE=? and LABEL=?';
const BACKTICK_SQL_WITHOUT_PROFILE =
  'SELECT `KEY`, `VALUE` from PROPERTIES where APPLICATION=? and PROFILE is null and LABEL=?';

interface Pair {
  readonly name: string;
  readonly endpoints: Endpoints;
  readonly requests: readonly string[];
}

describe(
  'confbus and Spring Cloud Config Server answer alike on JDBC, Redis and composite',
  {
    skip: skipWithoutJava(),
  },
  () => {
    let postgres: TestDatabase;
    let mariadb: TestDatabase;
    let redis: TestRedis;
    let remote: GitRemote;
    let gitHttp: GitHttpServer;
    let folders: TempDir;
    const pairs: Pair[] = [];

    before(async () => {
      const jar = await buildSpringPeer('spring-config-server', SPRING_CONFIG_SERVER_BACKENDS_GOALS);
      [postgres, mariadb, redis, remote, folders] = await Promise.all([
        createPostgresDatabase(),
        createMariaDbDatabase(),
        createRedisPrefix(),
        createGitRemote(),
        makeTempDir('confbus-diff-backends-'),
      ]);
      await postgres.execute(createTable('"'), ...insertStatements('"'));
      await mariadb.execute(createTable('`'), ...insertStatements('`'));
      for (const [key, fields] of Object.entries(hashes)) await redis.hset(`${redis.prefix}${key}`, fields);
      await remote.commit({
        [`${DB_APP}.yml`]: 'greeting: hello from git\nfrom.git: yes\n',
        [`${DB_APP}-dev.yml`]: 'greeting: hello from git dev\n',
      });
      await mkdir(join(folders.path, 'native'));
      await writeFile(join(folders.path, 'native', `${DB_APP}.properties`), 'greeting=hello from native\n');
      gitHttp = await startGitHttpServer(dirname(remote.path));
      const repoUrl = gitHttp.url(basename(remote.path));

      const common = {
        'encrypt.key': ENCRYPT_KEY,
        'spring.cloud.config.server.overrides.overridden': 'by-the-server',
      };
      const datasource = (db: TestDatabase, user: string) => ({
        'spring.datasource.url': db.url,
        'spring.datasource.username': user,
      });
      const redisSettings = {
        'spring.data.redis.host': new URL(REDIS_URL).hostname,
        'spring.data.redis.port': new URL(REDIS_URL).port,
      };
      // A native member and a git member whose repository does not exist. Spring's health indicator asks the
      // repository (and is DOWN with it): off on both sides, so the pair starts.
      const memberDown = {
        ...common,
        'spring.profiles.active': 'composite',
        ...datasource(postgres, POSTGRES.user),
        'spring.cloud.config.server.health.enabled': 'false',
        'spring.cloud.config.server.composite[0].type': 'native',
        'spring.cloud.config.server.composite[0].search-locations': `file:${join(folders.path, 'native')}`,
        'spring.cloud.config.server.composite[1].type': 'git',
        'spring.cloud.config.server.composite[1].uri': gitHttp.url('no-such-repo.git'),
      };
      const settings: Record<string, Record<string, string>> = {
        'jdbc (PostgreSQL)': {
          ...common,
          'spring.profiles.active': 'jdbc',
          ...datasource(postgres, POSTGRES.user),
        },
        'jdbc (MariaDB)': {
          ...common,
          'spring.profiles.active': 'jdbc',
          ...datasource(mariadb, MARIADB.user),
          'spring.cloud.config.server.jdbc.sql': BACKTICK_SQL,
          'spring.cloud.config.server.jdbc.sql-without-profile': BACKTICK_SQL_WITHOUT_PROFILE,
        },
        redis: { ...common, 'spring.profiles.active': 'redis', ...redisSettings },
        composite: {
          ...common,
          'spring.profiles.active': 'composite',
          ...datasource(postgres, POSTGRES.user),
          ...redisSettings,
          'spring.cloud.config.server.composite[0].type': 'git',
          'spring.cloud.config.server.composite[0].uri': repoUrl,
          'spring.cloud.config.server.composite[1].type': 'jdbc',
          'spring.cloud.config.server.composite[2].type': 'redis',
          'spring.cloud.config.server.composite[3].type': 'native',
          'spring.cloud.config.server.composite[3].search-locations': `file:${join(folders.path, 'native')}`,
          'spring.cloud.config.server.composite[3].order': '0',
          // A second member of one type, ordered between the native member and the rest.
          'spring.cloud.config.server.composite[4].type': 'git',
          'spring.cloud.config.server.composite[4].uri': repoUrl,
          'spring.cloud.config.server.composite[4].order': '1',
        },
        'composite, a member down, skipped': {
          ...memberDown,
          'spring.cloud.config.server.fail-on-composite-error': 'false',
        },
        'composite, a member down': memberDown,
      };
      const names = Object.keys(settings);
      const started = await Promise.all(
        names.map(async (name, i) => {
          // Each git member has a working copy of its own on each side.
          const gitMembers = name === 'composite' ? [0, 4] : name.startsWith('composite') ? [1] : [];
          const basedirs = (side: string): Record<string, string> =>
            Object.fromEntries(
              gitMembers.map((n) => [
                `spring.cloud.config.server.composite[${n}].basedir`,
                join(folders.path, `${side}-basedir-${i}-${n}`),
              ]),
            );
          const springOnly = {
            // Boot's JDBC starter will not start without a datasource, whether the jdbc backend is active or not.
            ...(name === 'redis' ? datasource(postgres, POSTGRES.user) : {}),
            ...basedirs('spring'),
          };
          const confbusOnly = basedirs('confbus');
          // startServer needs a git uri; the active profile decides whether it is used.
          const [ours, theirs] = await Promise.all([
            startServer({ 'spring.cloud.config.server.git.uri': repoUrl, ...settings[name], ...confbusOnly }),
            startSpringApp(jar, { ...settings[name]!, ...springOnly }),
          ]);
          return { name, ours, theirs };
        }),
      );
      // A {cipher} value: its ciphertext comes from the server (both share the key), then goes in every store.
      const cipher = await encrypt(started[0]!.ours, 'a secret');
      const secret: Row = [DB_APP, 'dev', 'master', 'password', `{cipher}${cipher}`];
      await postgres.execute(...insertStatements('"', [secret]).slice(-1));
      await mariadb.execute(...insertStatements('`', [secret]).slice(-1));
      await redis.hset(`${redis.prefix}${DB_APP}-dev`, { password: `{cipher}${cipher}` });
      for (const { name, ours, theirs } of started) {
        const requests =
          name === 'redis'
            ? [...redisRequests(redis.prefix), ...redisRenderings(redis.prefix)]
            : name.includes('member down')
              ? memberDownRequests
              : [...jdbcRequests, ...jdbcRenderings];
        pairs.push({
          name,
          requests,
          endpoints: {
            confbus: ours.base,
            spring: theirs.url,
            // Spring names git sources by the uri (the working copies are in folders.path too).
            repoAliases: [repoUrl.replace(/\/$/, ''), folders.path],
            springLog: theirs.process.lines,
            dataVersions: !name.startsWith('composite'),
          },
        });
      }
    });

    after(async () => {
      await stopAllNodeProcesses();
      await stopFleet();
      await gitHttp?.stop();
      await Promise.all([postgres?.drop(), mariadb?.drop(), redis?.drop(), remote?.remove()]);
      await folders?.remove();
    });

    it('differs only where docs/coming-from-spring.md says so', async () => {
      const differences: (Difference & { pair: string })[] = [];
      for (const pair of pairs) {
        for (const path of pair.requests) {
          const found = /\.(yml|properties|json)$/.test(path)
            ? await compareRendered(pair.endpoints, path)
            : [
                ...(await compareEnvironment(pair.endpoints, path)),
                ...(await compareOrigins(pair.endpoints, path)),
              ];
          differences.push(...found.map((d) => ({ ...d, pair: pair.name })));
        }
      }
      if (process.env.CONFBUS_DIFF_REPORT)
        await writeFile(
          `${process.env.CONFBUS_DIFF_REPORT}.backends.json`,
          JSON.stringify(differences, null, 2),
        );
      const known = await readKnownDifferences();
      const unlisted = differences.filter((d) => !known.deliberate.has(d.topic) && !known.open.has(d.topic));
      const byTopic = new Map<string, number>();
      for (const d of differences) byTopic.set(d.topic, (byTopic.get(d.topic) ?? 0) + 1);
      console.log(`differences by topic: ${JSON.stringify(Object.fromEntries(byTopic))}`);
      assert.deepEqual(
        unlisted.slice(0, 15).map((d) => `[${d.pair}: ${d.topic}] ${d.request}\n${d.detail}`),
        [],
        `${unlisted.length} difference(s) not listed in docs/coming-from-spring.md`,
      );
    });
  },
);

async function encrypt(server: RunningServer, text: string): Promise<string> {
  const response = await fetch(`${server.base}/encrypt`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: text,
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`POST /encrypt answered ${response.status}: ${body}`);
  return body;
}
