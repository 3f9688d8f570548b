// JDBC backend benchmark (issue #25): cached GET throughput from a PostgreSQL-backed server against the Git
// backend's, the same properties in both (40 keys for foo-dev, 40 for application), both with refresh-rate 60
// so every measured request is a cache hit. Goal: JDBC >= 0.95x Git. Alternating rounds, ratio = median of the
// per-round ratios. Then, in the same run, the real Spring Cloud Config Server 5.0.6 on the same database
// (spring.profiles.active=jdbc; interop/spring-config-server built with -Pbackends, the JVM's defaults) beside
// the confbus JDBC server: Spring reads the table on every request (it has no cache), confbus answers from its
// cache. Server CPU per cached GET (JDBC vs Git) is measured too: on a busy machine it holds where throughput
// rounds swing. The machine's load average is printed before and after (other processes share its two cores).
// The database is this machine's PostgreSQL (127.0.0.1:5432, user postgres), in a database of its own, dropped
// afterwards. Run alone: `node bench/jdbc-bench.mjs`.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { withServersPinnedApart } from './lib/cpu-affinity.mjs';
import { compareThroughput, get, throughput } from './lib/load.mjs';
import { startConfbusServer, startProcess } from './lib/processes.mjs';
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

const SPRING = 'Spring Cloud Config Server 5.0.6, JDBC';

/** The real Spring server on the same database, with the JVM's defaults (its best throughput). */
async function startSpringJdbc(jar, databaseUrl, tmp) {
  await mkdir(tmp, { recursive: true });
  const proc = await startProcess({
    name: 'Spring Cloud Config Server (jdbc)',
    command: 'java',
    args: [
      `-Djava.io.tmpdir=${tmp}`,
      '-jar',
      jar,
      '--spring.profiles.active=jdbc',
      `--spring.datasource.url=${databaseUrl}`,
      `--spring.datasource.username=${POSTGRES.user}`,
    ],
    deadlineMs: 240_000,
    ready: (line) => /confbus-interop: listening on port (\d+)/.exec(line)?.[1],
  });
  return { url: `http://127.0.0.1:${proc.value}`, stop: proc.stop, child: proc.child };
}

/** The CPU time (user + system) a process has used, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
async function cpuMs(pid) {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Server CPU per request, µs: a fixed number of requests, the server's CPU time before and after. Unlike
 * throughput, it hardly depends on what else the machine runs (the load average here is often 10-20).
 */
async function cpuPerRequest(server, url, requests = 20_000) {
  const before = await cpuMs(server.child.pid);
  const r = await autocannon({ url, connections: 20, amount: requests, timeout: 30 });
  if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`${url}: failed requests while measuring CPU`);
  return (((await cpuMs(server.child.pid)) - before) * 1000) / requests;
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

/** confbus's JDBC server against Spring's on the same table; a row, or a row saying why not. */
async function versusSpring({ log, note, root, database, jdbcServer }) {
  const measure = 'cached GET throughput, confbus JDBC vs Spring JDBC (PostgreSQL), req/s';
  const { springPeersUnavailable, buildSpringPeer, SPRING_CONFIG_SERVER_BACKENDS_GOALS } = await tsImport(
    '@confbus/testkit/spring-peers',
    import.meta.url,
  );
  const missing = springPeersUnavailable();
  if (missing)
    return { measure, confbus: `not run: ${missing}`, baseline: '', ratio: '', goal: '', pass: null };
  log('building the Spring Cloud Config Server with its JDBC backend (Maven, cached)');
  const jar = await buildSpringPeer('spring-config-server', SPRING_CONFIG_SERVER_BACKENDS_GOALS);
  const spring = await startSpringJdbc(jar, database.url, `${root.path}/spring-tmp`);
  onCleanup(() => spring.stop());
  const response = await get(spring.url + PATH);
  if (response.status !== 200) throw new Error(`Spring: GET ${PATH} answered ${response.status}`);
  note(`- Spring JDBC response: ${response.body.length} bytes`);
  // A long warm-up: a cold JVM answers its first thousand requests far slower than a warm one.
  log('Spring JDBC: warm-up');
  await throughput({ url: spring.url + PATH, connections: 50, warmupSeconds: 15, seconds: 1 });
  log('confbus JDBC vs Spring JDBC (alternating rounds)');
  const { pinned, result } = await withServersPinnedApart([jdbcServer.child.pid, spring.child.pid], () =>
    compareThroughput({ a: jdbcServer.url + PATH, b: spring.url + PATH, rounds: ROUNDS, balanced: true }),
  );
  const rounds = (x) => x.rounds.map((r) => fmt(r)).join(' / ');
  note(
    `- vs Spring, median of ${ROUNDS} alternating 4 s rounds (${pinned ? 'servers pinned apart' : 'not pinned'}): ` +
      `confbus JDBC ${fmt(result.a.rps)} req/s (${rounds(result.a)}), p99 ${result.a.p99} ms; ` +
      `Spring JDBC ${fmt(result.b.rps)} req/s (${rounds(result.b)}), p99 ${result.b.p99} ms, failed ${result.b.failed}`,
  );
  await spring.stop();
  return {
    measure,
    confbus: fmt(result.a.rps),
    baseline: `${fmt(result.b.rps)} (${SPRING})`,
    ratio: `${fmt(result.ratio)}x`,
    goal: '',
    pass: null,
  };
}

export async function run({ log }) {
  const lines = [];
  // Each line goes to the report's section and, as it is found, to the log (a run alone prints no sections).
  const note = (line) => {
    lines.push(line);
    log(line.replace(/^- /, ''));
  };
  note(`- load average (1 / 5 / 15 min) at start: ${load()}`);
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
      note(`- ${server === gitServer ? 'Git' : 'JDBC'} response: ${response.body.length} bytes`);
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
    note(
      `- median of ${ROUNDS} alternating 4 s rounds (${pinned ? 'servers pinned apart' : 'not pinned'}): ` +
        `JDBC ${fmt(result.a.rps)} req/s (${rounds(result.a)}), Git ${fmt(result.b.rps)} req/s (${rounds(result.b)})`,
    );
    // CPU per request, alternating (git, jdbc, jdbc, git, ...), medians: the steadier figure on a busy machine.
    const cpu = { git: [], jdbc: [] };
    for (let i = 0; i < 4; i++) {
      for (const side of i % 2 === 0 ? ['git', 'jdbc'] : ['jdbc', 'git']) {
        const server = side === 'git' ? gitServer : jdbcServer;
        cpu[side].push(await cpuPerRequest(server, server.url + PATH));
      }
    }
    const mid = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
    note(
      `- server CPU per cached GET (4 alternating runs of 20,000 requests, median): JDBC ${fmt(mid(cpu.jdbc))} µs ` +
        `(${cpu.jdbc.map(fmt).join(' / ')}), Git ${fmt(mid(cpu.git))} µs (${cpu.git.map(fmt).join(' / ')}): ` +
        `JDBC costs ${fmt(mid(cpu.jdbc) / mid(cpu.git))}x Git's CPU per request`,
    );
    const gitRow = {
      measure,
      confbus: fmt(result.a.rps),
      baseline: `${fmt(result.b.rps)} (Git backend)`,
      ratio: `${fmt(result.ratio)}x`,
      goal: '>= 0.95x',
      pass: result.ratio >= 0.95,
    };
    const cpuRatio = mid(cpu.jdbc) / mid(cpu.git);
    const cpuRow = {
      measure: 'server CPU per cached GET, JDBC (PostgreSQL) vs Git, µs (lower is better)',
      confbus: fmt(mid(cpu.jdbc)),
      baseline: `${fmt(mid(cpu.git))} (Git backend)`,
      ratio: `${fmt(cpuRatio)}x`,
      // The throughput goal (>= 0.95x) as CPU per request, for a server bound by its CPU.
      goal: '<= 1.05x',
      pass: cpuRatio <= 1.05,
    };
    await gitServer.stop();
    let springRow;
    try {
      springRow = await versusSpring({ log, note, root, database, jdbcServer });
    } catch (error) {
      springRow = {
        measure: 'cached GET throughput, confbus JDBC vs Spring JDBC (PostgreSQL), req/s',
        confbus: `error: ${String(error.message).slice(0, 80)}`,
        baseline: '',
        ratio: '',
        goal: '',
        pass: null,
      };
    }
    note(`- load average (1 / 5 / 15 min) at the end: ${load()}`);
    return {
      rows: [gitRow, cpuRow, springRow],
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
