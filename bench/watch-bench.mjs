// Watch stream benchmark (issue #29): N watchers (1,000 and 10,000) held open on one confbus server with no
// bus, spread over two worker processes (bench/lib/watch-worker.mjs); per round a commit and a webhook, timed
// until every watcher serves the new version ("serving the new config"), in two modes one after the other in
// the same run: watchers told the changed keys, which re-fetch the environment (`keys`), and watchers whose
// change carries the environment (`?include=environment`, `environment`), which fetch nothing. Server memory
// per watcher is the server's RSS growth over the watchers divided by their number. Also printed: the bytes of
// the environment body a change carries (or a re-fetch reads) against a change message of keys alone. Each round is split into phases (the server's own timings from its log lines, the
// workers' from their clocks, the same machine's): webhook → fetched, the environment read, diff, writes to
// every stream, the last change read by a worker, every re-fetch answered; with the CPU the server and the
// workers spent on it. Pushes per second per core (watchers told / the server's CPU seconds of the round) are
// printed against Apollo's and Nacos's published rates, and the same fleet sizes are then refreshed over the
// AMQP bus in the same run for comparison (lib/bus-fleet-comparison.mjs; CONFBUS_WATCH_BENCH_BUS=0 skips
// it). Run alone: `npm run build && node bench/watch-bench.mjs`
// (CONFBUS_WATCH_BENCH_SIZES=1000, _ROUNDS and _MODES=keys|environment shrink it; CONFBUS_WATCH_BENCH_CPU_PROF=<dir> writes CPU
// profiles of the server and the workers there, for `node --cpu-prof` analysis).
import { fork } from 'node:child_process';
/* global fetch */
import { readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir, sampleConfigFiles } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';
import { measureBusFleets } from './lib/bus-fleet-comparison.mjs';
import { PEERS, comparisonRows } from './lib/watch-comparisons.mjs';

export const title = 'Watch stream (no broker)';

const SIZES = (process.env.CONFBUS_WATCH_BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const ROUNDS = Number(process.env.CONFBUS_WATCH_BENCH_ROUNDS ?? 3);
const MODES = (process.env.CONFBUS_WATCH_BENCH_MODES ?? 'keys,environment').split(',');
const MODE_NAMES = { keys: 'keys, re-fetch', environment: 'environment carried' };
const WORKERS = 2;
const GOALS = { 1000: 200, 10000: 1000 };
const BYTES_GOAL = 10 * 1024;
const PROFILE_DIR = process.env.CONFBUS_WATCH_BENCH_CPU_PROF;
const PROFILE_ARGS = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
const CLOCK_TICKS_PER_MS = 100 / 1000;
const BUS = process.env.CONFBUS_WATCH_BENCH_BUS !== '0';

/** CPU time (user + system) a process has used, in ms, from /proc (USER_HZ is 100 on Linux). */
async function cpuMsOf(pid) {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_MS;
}

/** The server's JSON log lines, for the timings it logs (a webhook's fetch, a change's read, diff, writes). */
function tapLog(child) {
  const waiters = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    for (const waiter of [...waiters]) {
      if (waiter.match(entry)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    }
  });
  return (match) => new Promise((resolve) => waiters.push({ match, resolve }));
}

async function rssOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

function startWorker() {
  const child = fork(new URL('./lib/watch-worker.mjs', import.meta.url), [], {
    stdio: 'inherit',
    execArgv: PROFILE_ARGS,
  });
  const waiters = [];
  child.on('message', (m) => waiters.splice(0).forEach((w) => w(m)));
  const next = (type) =>
    new Promise((resolve) => {
      const wait = (m) => (m.type === type ? resolve(m) : waiters.push(wait));
      waiters.push(wait);
    });
  return { child, next };
}

async function measureSize(n, mode, { url, pid, repo, log, logLine }) {
  // One GET first, so the RSS growth counted is the watchers', not the first read's (repository, caches).
  await (await fetch(`${url}/foo/dev`)).arrayBuffer();
  const before = await rssOf(pid);
  const workers = Array.from({ length: WORKERS }, startWorker);
  const per = Math.ceil(n / WORKERS);
  const watchUrl = `${url}/-/watch/foo/dev${mode === 'environment' ? '?include=environment' : ''}`;
  const envUrl = `${url}/foo/dev`;
  workers.forEach((w, i) =>
    w.child.send({ type: 'open', watchUrl, envUrl, count: Math.min(per, n - i * per) }),
  );
  await Promise.all(workers.map((w) => w.next('opened')));
  const perWatcher = ((await rssOf(pid)) - before) / n;
  log(`${n} watchers (${mode}) open; server RSS +${fmt(perWatcher / 1024, ' KB')} per watcher`);
  const times = [];
  const phases = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const version = await repo.push({ 'foo-dev.yml': `round:\n  n: ${n}-${round}\n` });
    const served = workers.map((w) => w.next('served'));
    const webhookLine = logLine((e) => typeof e.fetchMs === 'number');
    const changeLine = logLine((e) => e.version === version && typeof e.writeMs === 'number');
    const serverCpu = await cpuMsOf(pid);
    const sent = Date.now();
    const answer = await fetch(`${url}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'foo-dev.yml' }),
    });
    if (answer.status !== 200) throw new Error(`/monitor answered ${answer.status}`);
    const answered = Date.now();
    const reports = await Promise.all(served);
    const [webhook, change] = await Promise.all([webhookLine, changeLine]);
    if (mode === 'environment' && !(change.environmentBytes > 0))
      throw new Error('the change carried no environment');
    if (reports.some((r) => r.version !== version)) throw new Error('a worker served another version');
    const all = Math.max(...reports.map((r) => r.at));
    const lastTold = Math.max(...reports.map((r) => r.lastChangeAt));
    times.push(all - sent);
    const phase = {
      total: all - sent,
      fetch: webhook.fetchMs,
      webhookAnswered: answered - sent,
      read: change.findMs,
      diff: change.diffMs,
      writes: change.writeMs,
      written: Date.parse(change.time) - sent,
      firstTold: Math.min(...reports.map((r) => r.firstChangeAt)) - sent,
      lastTold: lastTold - sent,
      refetches: all - lastTold,
      serverCpu: Math.round((await cpuMsOf(pid)) - serverCpu),
      workerCpu: Math.round(reports.reduce((sum, r) => sum + r.cpuMs, 0)),
    };
    phases.push(phase);
    log(
      `${n} watchers (${mode}), round ${round}: all serving the push after ${phase.total} ms — ` +
        `fetch ${phase.fetch} ms (webhook answered at ${phase.webhookAnswered}), read ${phase.read}, ` +
        `diff ${phase.diff}, writes ${phase.writes} (written at ${phase.written}); first change read at ` +
        `${phase.firstTold}, last at ${phase.lastTold}; re-fetches ${phase.refetches} ms more; ` +
        `CPU server ${phase.serverCpu} ms, workers ${phase.workerCpu} ms`,
    );
  }
  workers.forEach((w) => w.child.send({ type: 'close' }));
  await Promise.all(workers.map((w) => new Promise((r) => w.child.once('exit', r))));
  return { perWatcher, times, phases };
}

/** `lo–hi` over the rounds of one phase. */
function range(phases, key) {
  const values = phases.map((p) => p[key]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? `${lo}` : `${lo}–${hi}`;
}

/** A server of its own for each fleet size and mode: its RSS growth is that fleet's alone. */
function startServer(repo, dir) {
  return startConfbusServer({
    uri: repo.path,
    basedir: `${dir}/mirror-${Math.random().toString(36).slice(2)}`,
    refreshRate: 3600,
    extraArgs: ['--confbus.watch.max-opens-per-second=1000000', '--confbus.watch.upstream-check-interval=0'],
    nodeArgs: PROFILE_ARGS,
  });
}

export async function run({ log }) {
  const { path: dir } = await makeTempDir('confbus-watch-bench-');
  const repo = await createConfigRepo(dir, 'config', sampleConfigFiles());
  const rows = [];
  const lines = [];
  let server;
  try {
    server = await startServer(repo, dir);
    // What a change carries with the environment: the body a re-fetch reads.
    const envBytes = (await (await fetch(`${server.url}/foo/dev`)).arrayBuffer()).byteLength;
    await server.stop();
    server = undefined;
    lines.push(
      `environment body a change carries or a re-fetch reads (foo/dev): ${envBytes} bytes; a change message of keys alone is ~150 bytes + its keys`,
      `load average at start: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} (${availableParallelism()} cores)`,
    );
    const medians = {};
    /** Per size, per mode: what measureSize answered, for the comparisons. */
    const measured = {};
    for (const n of SIZES)
      for (const mode of MODES) {
        server = await startServer(repo, dir);
        const { perWatcher, times, phases } = await measureSize(n, mode, {
          url: server.url,
          pid: server.child.pid,
          repo,
          log,
          logLine: tapLog(server.child),
        });
        (measured[n] ??= {})[mode] = { perWatcher, times, phases };
        await server.stop();
        server = undefined;
        const sorted = [...times].sort((a, b) => a - b);
        const median = sorted[Math.floor(sorted.length / 2)];
        const worst = sorted.at(-1);
        const goal = GOALS[n];
        // The environment mode's baseline: the same fleet re-fetching, measured just before in this run.
        const baseline = mode === 'environment' ? medians[`${n}:keys`] : undefined;
        medians[`${n}:${mode}`] = median;
        rows.push({
          measure: `watch (${MODE_NAMES[mode] ?? mode}): webhook → ${n} watchers serving (median of ${ROUNDS} rounds; worst)`,
          confbus: `${median} ms (worst ${worst} ms)`,
          baseline: baseline === undefined ? '' : `${baseline} ms (keys, re-fetch)`,
          ratio: baseline === undefined ? '' : `${fmt(baseline / Math.max(1, median), '×')} faster`,
          goal: goal ? `≤ ${goal} ms` : '',
          pass: goal ? median <= goal : null,
        });
        rows.push({
          measure: `watch (${MODE_NAMES[mode] ?? mode}): server memory per watcher at ${n}`,
          confbus: fmt(perWatcher / 1024, ' KB'),
          baseline: '',
          ratio: '',
          goal: '≤ 10 KB',
          pass: perWatcher <= BYTES_GOAL,
        });
        lines.push(
          `${n} watchers (${mode}): rounds ${times.join(', ')} ms; RSS per watcher ${fmt(perWatcher, ' B')}; load ${loadavg()[0].toFixed(1)}`,
        );
        lines.push(
          `${n} watchers (${mode}), phases over the rounds (ms): fetch ${range(phases, 'fetch')}, environment read ` +
            `${range(phases, 'read')}, diff ${range(phases, 'diff')}, writes to every stream ` +
            `${range(phases, 'writes')} (done at ${range(phases, 'written')} after the webhook); first change ` +
            `read by a worker at ${range(phases, 'firstTold')}, last at ${range(phases, 'lastTold')}; re-fetches ` +
            `${range(phases, 'refetches')} more; CPU per round: server ${range(phases, 'serverCpu')}, workers ` +
            `${range(phases, 'workerCpu')}`,
        );
      }
    // The bus after the watch: its broker and its fleet's processes would share the machine otherwise.
    let bus;
    try {
      bus = BUS ? await measureBusFleets(SIZES, { rounds: ROUNDS, log }) : undefined;
      if (bus) lines.push(`AMQP bus fleets on ${bus.broker}; 4 worker processes; acks off`);
    } catch (error) {
      lines.push(`AMQP bus comparison failed: ${error.message.split('\n')[0]}`);
    }
    for (const n of SIZES) {
      const compared = comparisonRows(
        n,
        measured[n],
        bus?.results.find((r) => r.asked === n),
      );
      rows.push(...compared.rows);
      lines.push(...compared.lines);
    }
    lines.push(...PEERS.map((peer) => `push rate of ${peer.source}`));
  } catch (error) {
    rows.push({
      measure: 'watch bench',
      confbus: `failed: ${error.message}`,
      baseline: '',
      ratio: '',
      goal: '',
      pass: false,
    });
  } finally {
    await server?.stop();
  }
  for (const line of lines) log(line);
  return { rows, sections: [{ title, lines }] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
