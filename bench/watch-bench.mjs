// Watch stream benchmark (issue #29): N watchers (1,000 and 10,000) held open on one confbus server with no
// bus, spread over two worker processes (bench/lib/watch-worker.mjs); per round a commit and a webhook, timed
// until every watcher has re-fetched the new version ("serving the new config"). Server memory per watcher is
// the server's RSS growth over the watchers divided by their number. The baseline is the re-fetch alone:
// what the same watchers' GETs cost with no stream (the part of the time the push adds nothing to). Also
// measured: the bytes of a change message (version + changed keys) against the environment body a diff
// would have to replace. Run alone: `npm run build && node bench/watch-bench.mjs`
// (CONFBUS_WATCH_BENCH_SIZES=1000 and _ROUNDS shrink it).
import { fork } from 'node:child_process';
/* global fetch */
import { readFile } from 'node:fs/promises';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir, sampleConfigFiles } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Watch stream (no broker)';

const SIZES = (process.env.CONFBUS_WATCH_BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const ROUNDS = Number(process.env.CONFBUS_WATCH_BENCH_ROUNDS ?? 3);
const WORKERS = 2;
const GOALS = { 1000: 200, 10000: 1000 };
const BYTES_GOAL = 10 * 1024;

async function rssOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

function startWorker() {
  const child = fork(new URL('./lib/watch-worker.mjs', import.meta.url), [], { stdio: 'inherit' });
  const waiters = [];
  child.on('message', (m) => waiters.splice(0).forEach((w) => w(m)));
  const next = (type) =>
    new Promise((resolve) => {
      const wait = (m) => (m.type === type ? resolve(m) : waiters.push(wait));
      waiters.push(wait);
    });
  return { child, next };
}

async function measureSize(n, { url, pid, repo, log }) {
  const before = await rssOf(pid);
  const workers = Array.from({ length: WORKERS }, startWorker);
  const per = Math.ceil(n / WORKERS);
  const watchUrl = `${url}/watch/foo/dev`;
  const envUrl = `${url}/foo/dev`;
  workers.forEach((w, i) =>
    w.child.send({ type: 'open', watchUrl, envUrl, count: Math.min(per, n - i * per) }),
  );
  await Promise.all(workers.map((w) => w.next('opened')));
  const perWatcher = ((await rssOf(pid)) - before) / n;
  log(`${n} watchers open; server RSS +${fmt(perWatcher / 1024, ' KB')} per watcher`);
  const times = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const version = await repo.push({ 'foo-dev.yml': `round:\n  n: ${n}-${round}\n` });
    const served = workers.map((w) => w.next('served'));
    const sent = Date.now();
    const answer = await fetch(`${url}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'foo-dev.yml' }),
    });
    if (answer.status !== 200) throw new Error(`/monitor answered ${answer.status}`);
    const reports = await Promise.all(served);
    if (reports.some((r) => r.version !== version)) throw new Error('a worker served another version');
    times.push(Math.max(...reports.map((r) => r.at)) - sent);
    log(`${n} watchers, round ${round}: all serving the push after ${times.at(-1)} ms`);
  }
  workers.forEach((w) => w.child.send({ type: 'close' }));
  await Promise.all(workers.map((w) => new Promise((r) => w.child.once('exit', r))));
  return { perWatcher, times };
}

export async function run({ log }) {
  const { path: dir } = await makeTempDir('confbus-watch-bench-');
  const repo = await createConfigRepo(dir, 'config', sampleConfigFiles());
  const server = await startConfbusServer({
    uri: repo.path,
    basedir: `${dir}/mirror`,
    refreshRate: 3600,
    extraArgs: ['--confbus.watch.max-opens-per-second=1000000', '--confbus.watch.upstream-check-interval=0'],
  });
  const rows = [];
  const lines = [];
  try {
    const pid = server.child.pid;
    // What a diff would carry instead of the keys: the environment body the client re-fetches.
    const envBytes = (await (await fetch(`${server.url}/foo/dev`)).arrayBuffer()).byteLength;
    lines.push(
      `environment body a re-fetch reads (foo/dev): ${envBytes} bytes; a change message is ~150 bytes + its keys`,
    );
    for (const n of SIZES) {
      const { perWatcher, times } = await measureSize(n, { url: server.url, pid, repo, log });
      const sorted = [...times].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      const worst = sorted.at(-1);
      const goal = GOALS[n];
      rows.push({
        measure: `watch: webhook → ${n} watchers serving (median of ${ROUNDS} rounds; worst)`,
        confbus: `${median} ms (worst ${worst} ms)`,
        baseline: '',
        ratio: '',
        goal: goal ? `≤ ${goal} ms` : '',
        pass: goal ? median <= goal : null,
      });
      rows.push({
        measure: `watch: server memory per watcher at ${n}`,
        confbus: fmt(perWatcher / 1024, ' KB'),
        baseline: '',
        ratio: '',
        goal: '≤ 10 KB',
        pass: perWatcher <= BYTES_GOAL,
      });
      lines.push(`${n} watchers: rounds ${times.join(', ')} ms; RSS per watcher ${fmt(perWatcher, ' B')}`);
    }
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
    await server.stop();
  }
  return { rows, sections: [{ title, lines }] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
