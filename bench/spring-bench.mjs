// confbus against the real Spring Cloud Config Server (interop/spring-config-server, Spring Cloud 2025.1 on
// Boot 4.1), in the same run, on the same repository served over git:// by `git daemon`. Both servers are
// child processes; the load generator (autocannon, bench/lib/load.mjs) runs in this process.
//   1. fresh mode (refresh-rate 0): throughput and p99;  2. cached mode (refresh-rate 60): throughput and p99;
//   3. 1,000 simultaneous requests right after a push: time until all are answered, and each server's git
//      sessions with the upstream in that time (ref listings and fetches that downloaded objects), counted at
//      the transport by a proxy in front of the daemon (testkit git-session-counter): JGit speaks the git
//      protocol itself, so nothing else sees Spring's fetches;
//   4. time from start to the first answer;  5. idle RSS after start-up and one request.
// Needs Java 17+ and Maven (the Spring server is built by testkit's maven.ts); without them every row says
// why it was not run. Run alone: `node bench/spring-bench.mjs`.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { Agent } from 'node:http';
import { get, throughput } from './lib/load.mjs';
import { startConfbusServer, startProcess } from './lib/processes.mjs';
import { createConfigRepo, fillerFiles, makeTempDir, sampleConfigFiles } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Config server vs Spring Cloud Config Server';

const CONNECTIONS = 50;
const FRESH_CONNECTIONS = 10;
const BURST = 1000;
const PATH = '/foo/dev';
const SPRING = 'Spring Cloud Config Server 5.0';

/** Starts the real Spring server with the JVM's defaults (no quick-start flags: its best throughput). */
async function startSpringServer(jar, { uri, basedir, refreshRate }) {
  await mkdir(`${basedir}-tmp`, { recursive: true });
  const startedAt = performance.now();
  const proc = await startProcess({
    name: 'Spring Cloud Config Server',
    command: 'java',
    args: [
      // Tomcat's work folder in the benchmark's temp folder (removed with it), not left behind in /tmp.
      `-Djava.io.tmpdir=${basedir}-tmp`,
      '-jar',
      jar,
      `--spring.cloud.config.server.git.uri=${uri}`,
      `--spring.cloud.config.server.git.basedir=${basedir}`,
      `--spring.cloud.config.server.git.refresh-rate=${refreshRate}`,
      '--spring.cloud.config.server.git.default-label=master',
      // As confbus in benchmarks: no per-request logging; Spring logs little at INFO anyway.
    ],
    deadlineMs: 240_000,
    ready: (line) => /confbus-interop: listening on port (\d+)/.exec(line)?.[1],
  });
  return { url: `http://127.0.0.1:${proc.value}`, stop: proc.stop, child: proc.child, startedAt };
}

/** Polls until the server answers 200 at PATH; the milliseconds since `startedAt`. */
async function firstAnswerMs(url, startedAt) {
  for (;;) {
    const res = await get(url + PATH).catch(() => undefined);
    if (res?.status === 200) return performance.now() - startedAt;
    await delay(20);
  }
}

async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

async function fetches(url) {
  const res = await get(`${url}/actuator/health`);
  return JSON.parse(res.body.toString()).components?.git?.details?.fetches;
}

/** The git sessions counted between two `counts()` of a git session counter. */
const sessionsBetween = (before, after) => ({
  sessions: after.sessions - before.sessions,
  packRequests: after.packRequests - before.packRequests,
});

const BURST_DEADLINE_MS = 120_000;

/**
 * Pushes, then sends BURST requests at once and waits for all of them, or until the deadline (a server that
 * serialises a fetch per request can take minutes); `ms` is undefined when the deadline came first. `git`:
 * the server's upstream sessions from the push until then, from the counter its git URI goes through.
 */
async function burstAfterPush(url, push, counter) {
  const fetchesBefore = await fetches(url).catch(() => undefined);
  const countsBefore = counter.counts();
  await push();
  const agent = new Agent({ keepAlive: true, maxSockets: BURST });
  let ok = 0;
  const t0 = performance.now();
  const all = Promise.all(
    Array.from({ length: BURST }, () =>
      get(url + PATH, agent).then(
        (res) => void (res.status === 200 && ok++),
        () => undefined,
      ),
    ),
  ).then(() => performance.now() - t0);
  const ms = await Promise.race([all, delay(BURST_DEADLINE_MS).then(() => undefined)]);
  const git = sessionsBetween(countsBefore, counter.counts());
  agent.destroy();
  return { ms, ok, fetchesBefore, git };
}

export async function run({ log }) {
  const rows = [];
  const details = [];
  const note = (line) => {
    details.push(line);
    log(line.replace(/^- /, ''));
  };
  const row = (measure, confbus, spring, ratio, goal = '', pass = null) =>
    rows.push({
      measure: `vs Spring: ${measure}`,
      confbus,
      baseline: `${spring} (${SPRING})`,
      ratio,
      goal,
      pass,
    });

  const { springPeersUnavailable, buildSpringPeer } = await tsImport(
    '@confbus/testkit/spring-peers',
    import.meta.url,
  );
  const missing = springPeersUnavailable();
  if (missing) {
    rows.push({
      measure: 'vs Spring: all rows',
      confbus: `not run: ${missing}`,
      baseline: '',
      ratio: '',
      goal: '',
      pass: null,
    });
    return {
      rows,
      sections: [{ title: 'vs Spring (bench/spring-bench.mjs)', lines: [`- not run: ${missing}`] }],
    };
  }
  log('building the Spring Cloud Config Server (Maven, cached)');
  const jar = await buildSpringPeer('spring-config-server');

  const root = await makeTempDir('confbus-spring-bench-');
  const reposDir = join(root.path, 'repos');
  await mkdir(reposDir);
  const repo = await createConfigRepo(reposDir, 'small', { ...sampleConfigFiles(), ...fillerFiles(6) });
  const { startGitDaemon } = await tsImport('@confbus/testkit/git-daemon', import.meta.url);
  const daemon = await startGitDaemon(reposDir);
  onCleanup(() => daemon.stop());
  // Each server reaches the daemon through its own counter, so their git sessions are told apart.
  const { startGitSessionCounter } = await tsImport('@confbus/testkit/git-session-counter', import.meta.url);
  const confbusGit = await startGitSessionCounter(daemon.port);
  onCleanup(() => confbusGit.stop());
  const springGit = await startGitSessionCounter(daemon.port);
  onCleanup(() => springGit.stop());
  const uri = confbusGit.url('small.git');
  const springUri = springGit.url('small.git');
  const pushChange = (i) =>
    repo.push({ 'foo-dev.yml': `${sampleConfigFiles()['foo-dev.yml']}bench:\n  push: ${i}\n` });
  const basedir = (name) => join(root.path, name);

  // Fresh mode: start-up, idle RSS, throughput, the burst after a push.
  log('fresh mode: starting both servers');
  const confbusStart = performance.now();
  const confbus = await startConfbusServer({ uri, basedir: basedir('confbus-fresh'), refreshRate: 0 });
  const confbusFirst = await firstAnswerMs(confbus.url, confbusStart);
  const spring = await startSpringServer(jar, {
    uri: springUri,
    basedir: basedir('spring-fresh'),
    refreshRate: 0,
  });
  const springFirst = await firstAnswerMs(spring.url, spring.startedAt);
  row(
    'start to first answer, ms',
    fmt(confbusFirst),
    fmt(springFirst),
    `${fmt(springFirst / confbusFirst)}x faster`,
  );
  const [confbusRss, springRss] = [await rssMiB(confbus.child.pid), await rssMiB(spring.child.pid)];
  row(
    'idle RSS after one request, MiB',
    fmt(confbusRss),
    fmt(springRss),
    `${fmt(springRss / confbusRss)}x smaller`,
  );

  log('fresh mode: throughput');
  // Few connections and a long window: Spring serialises a fetch per request, so the warm-up's unanswered
  // requests delay the measured ones; both servers get the same parameters.
  const fresh = { connections: FRESH_CONNECTIONS, warmupSeconds: 2, seconds: 15 };
  const cf = await throughput({ url: confbus.url + PATH, ...fresh });
  const sf = await throughput({ url: spring.url + PATH, ...fresh });
  row('fresh GET throughput, req/s (refresh-rate 0)', fmt(cf.rps), fmt(sf.rps), `${fmt(cf.rps / sf.rps)}x`);
  row(
    'fresh GET p99, ms (refresh-rate 0)',
    `${cf.p99}`,
    `${sf.p99}`,
    `${fmt(sf.p99 / Math.max(1, cf.p99))}x lower`,
  );
  note(
    `- fresh: confbus ${fmt(cf.rps)} req/s, p50 ${cf.p50} ms, p99 ${cf.p99} ms, failed ${cf.failed}; ${SPRING} ${fmt(sf.rps)} req/s, p50 ${sf.p50} ms, p99 ${sf.p99} ms, failed ${sf.failed}`,
  );

  log(`fresh mode: ${BURST} requests right after a push`);
  const cb = await burstAfterPush(confbus.url, () => pushChange(1), confbusGit);
  const sb = await burstAfterPush(spring.url, () => pushChange(2), springGit);
  const fetchesAfter = await fetches(confbus.url);
  const answered = (b) =>
    b.ms === undefined ? `> ${BURST_DEADLINE_MS / 1000} s (${b.ok} answered)` : fmt(b.ms);
  row(
    `${BURST.toLocaleString('en')} requests right after a push: ms to answer all`,
    answered(cb),
    answered(sb),
    cb.ms !== undefined && sb.ms !== undefined ? `${fmt(sb.ms / cb.ms)}x faster` : '',
  );
  const sessions = ({ git }) => `${git.sessions} (${git.packRequests})`;
  row(
    `${BURST.toLocaleString('en')} requests right after a push: git sessions with the upstream (of them fetches of objects)`,
    sessions(cb),
    sessions(sb),
    cb.git.sessions > 0 ? `${fmt(sb.git.sessions / cb.git.sessions)}x fewer` : '',
  );
  note(
    `- burst after a push (all ${BURST} sent at once on new connections, ${BURST_DEADLINE_MS / 1000} s deadline): confbus ${cb.ok}/${BURST} answered 200 in ${answered(cb)} ms; ` +
      `${SPRING} ${sb.ok}/${BURST} in ${answered(sb)} ms`,
  );
  note(
    `- git sessions from the push until the last answer (or the deadline), counted by a proxy in front of git daemon: ` +
      `confbus ${cb.git.sessions}, of which ${cb.git.packRequests} fetched objects (its own count: ${fetchesAfter - cb.fetchesBefore} fetch(es)); ` +
      `${SPRING} ${sb.git.sessions}, of which ${sb.git.packRequests} fetched objects (JGit fetches before every request at refresh-rate 0; ` +
      `a fetch that finds nothing new lists the refs and asks for no objects)`,
  );
  await confbus.stop();
  await spring.stop();

  // Cached mode: both skip the upstream for 60 s.
  log('cached mode: throughput');
  const confbusCached = await startConfbusServer({
    uri,
    basedir: basedir('confbus-cached'),
    refreshRate: 60,
  });
  const springCached = await startSpringServer(jar, {
    uri: springUri,
    basedir: basedir('spring-cached'),
    refreshRate: 60,
  });
  await firstAnswerMs(confbusCached.url, performance.now());
  await firstAnswerMs(springCached.url, performance.now());
  // A long warm-up: a cold JVM answers its first thousand requests far slower than a warm one.
  const cached = { connections: CONNECTIONS, warmupSeconds: 15, seconds: 8 };
  const cc = await throughput({ url: confbusCached.url + PATH, ...cached });
  const sc = await throughput({ url: springCached.url + PATH, ...cached });
  row('cached GET throughput, req/s (refresh-rate 60)', fmt(cc.rps), fmt(sc.rps), `${fmt(cc.rps / sc.rps)}x`);
  row(
    'cached GET p99, ms (refresh-rate 60)',
    `${cc.p99}`,
    `${sc.p99}`,
    `${fmt(sc.p99 / Math.max(1, cc.p99))}x lower`,
  );
  note(
    `- cached: confbus ${fmt(cc.rps)} req/s, p50 ${cc.p50} ms, p99 ${cc.p99} ms, failed ${cc.failed}; ${SPRING} ${fmt(sc.rps)} req/s, p50 ${sc.p50} ms, p99 ${sc.p99} ms, failed ${sc.failed}`,
  );
  note(
    `- the same repository (10 files) over git://; fresh: ${FRESH_CONNECTIONS} connections, 2 s warm-up, 15 s measured; ` +
      `cached: ${CONNECTIONS} connections, 15 s warm-up, 8 s measured; Spring runs with the JVM's defaults`,
  );
  await confbusCached.stop();
  await springCached.stop();
  await root.remove();

  return {
    rows,
    sections: [{ title: 'vs Spring Cloud Config Server (bench/spring-bench.mjs)', lines: details }],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
