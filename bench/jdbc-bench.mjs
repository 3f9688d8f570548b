// JDBC backend benchmark (issue #25): cached GET throughput from a PostgreSQL-backed server against the Git
// backend's, the same properties in both (40 keys for foo-dev, 40 for application), both with refresh-rate 60
// so every measured request is a cache hit. Goal: JDBC >= 0.95x Git. Alternating rounds, ratio = median of the
// per-round ratios. The database is this machine's PostgreSQL (127.0.0.1:5432, user postgres), in a database
// of its own, dropped afterwards. Run alone: `node bench/jdbc-bench.mjs`.
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { onCleanup } from './lib/cleanup.mjs';
import { withServersPinnedApart } from './lib/cpu-affinity.mjs';
import { compareThroughput, get } from './lib/load.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'JDBC backend';

const KEYS = 40;
const ROUNDS = 5;
const PATH = '/foo/dev';
const POSTGRES = { host: '127.0.0.1', port: 5432, user: 'postgres' };

function properties(app) {
  const entries = [];
  for (let i = 0; i < KEYS; i++) entries.push([`${app}.group${i % 5}.key${i}`, `value ${i} of ${app}`]);
  return entries;
}

async function createDatabase() {
  const name = `confbus_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ ...POSTGRES, database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const drop = async () => {
    const dropper = new pg.Client({ ...POSTGRES, database: 'postgres' });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  };
  const client = new pg.Client({ ...POSTGRES, database: name });
  await client.connect();
  await client.query(
    'CREATE TABLE PROPERTIES ("KEY" VARCHAR(2048), "VALUE" VARCHAR(4096), APPLICATION VARCHAR(128), PROFILE VARCHAR(128), LABEL VARCHAR(128))',
  );
  for (const [app, profile] of [
    ['foo', 'dev'],
    ['application', null],
  ]) {
    for (const [key, value] of properties(app)) {
      await client.query('INSERT INTO PROPERTIES VALUES ($1, $2, $3, $4, $5)', [
        key,
        value,
        app,
        profile,
        'master',
      ]);
    }
  }
  await client.end();
  return { url: `jdbc:postgresql://${POSTGRES.host}:${POSTGRES.port}/${name}`, drop };
}

export async function run({ log }) {
  const lines = [];
  const measure = 'cached GET throughput, JDBC (PostgreSQL) vs Git, req/s';
  try {
    const root = await makeTempDir('confbus-jdbc-bench-');
    onCleanup(() => root.remove());
    const text = (app) =>
      properties(app)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n';
    const repo = await createConfigRepo(root.path, 'config', {
      'foo-dev.properties': text('foo'),
      'application.properties': text('application'),
    });
    const database = await createDatabase();
    onCleanup(() => database.drop());
    const gitServer = await startConfbusServer({
      uri: repo.path,
      basedir: `${root.path}/git-mirror`,
      refreshRate: 60,
    });
    onCleanup(() => gitServer.stop());
    const jdbcServer = await startConfbusServer({
      uri: repo.path,
      basedir: `${root.path}/unused-mirror`,
      refreshRate: 60,
      extraArgs: [
        '--spring.profiles.active=jdbc',
        `--spring.datasource.url=${database.url}`,
        '--spring.datasource.username=postgres',
        '--spring.cloud.config.server.jdbc.refresh-rate=60',
      ],
    });
    onCleanup(() => jdbcServer.stop());
    for (const server of [gitServer, jdbcServer]) {
      const response = await get(server.url + PATH);
      if (response.status !== 200) throw new Error(`GET ${PATH} answered ${response.status}`);
      lines.push(`- ${server === gitServer ? 'Git' : 'JDBC'} response: ${response.body.length} bytes`);
    }
    log('JDBC vs Git, cached (alternating rounds)');
    const { pinned, result } = await withServersPinnedApart([jdbcServer.child.pid, gitServer.child.pid], () =>
      compareThroughput({
        a: jdbcServer.url + PATH,
        b: gitServer.url + PATH,
        rounds: ROUNDS,
        balanced: true,
      }),
    );
    const rounds = (x) => x.rounds.map((r) => fmt(r)).join(' / ');
    lines.push(
      `- median of ${ROUNDS} alternating 4 s rounds (${pinned ? 'servers pinned apart' : 'not pinned'}): ` +
        `JDBC ${fmt(result.a.rps)} req/s (${rounds(result.a)}), Git ${fmt(result.b.rps)} req/s (${rounds(result.b)})`,
    );
    return {
      rows: [
        {
          measure,
          confbus: fmt(result.a.rps),
          baseline: `${fmt(result.b.rps)} (Git backend)`,
          ratio: `${fmt(result.ratio)}x`,
          goal: '>= 0.95x',
          pass: result.ratio >= 0.95,
        },
      ],
      sections: [{ title: 'JDBC backend (bench/jdbc-bench.mjs)', lines }],
    };
  } catch (error) {
    return {
      rows: [
        {
          measure,
          confbus: `error: ${String(error.message).slice(0, 80)}`,
          baseline: '',
          ratio: '',
          goal: '>= 0.95x',
          pass: null,
        },
      ],
      sections: [{ title: 'JDBC backend (bench/jdbc-bench.mjs)', lines }],
    };
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
