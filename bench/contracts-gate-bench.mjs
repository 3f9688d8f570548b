// Contract gate benchmark (issue #26): a `confbus server` on a repository of 500 applications × 3 profiles, each
// application with a contract, and pushes that change application.yml (so every one of the 1,500 environments
// changes and is judged). Measured:
//   1. the gate's verdict: from POST /monitor (the webhook) to its answer, which comes only once every
//      environment the push changes has been built and validated (goal: p95 <= 2 s);
//   2. the cached GET path with the gate on (every application guarded) against the same server with
//      confbus.contracts.gate.enabled=false, throughput of a repeated environment request (goal: >= 0.95x), and
//      the server CPU each such request costs (what a loaded machine's throughput figures hide). Both servers hear
//      every push's webhook and serve the same commit: a server that has fetched and built since its start serves
//      slower than one that has not (docs/benchmarks.md, "Several repositories"), so a baseline left at its first
//      commit would credit the gate with that difference too.
// Run alone: `npx tsc -b && node bench/contracts-gate-bench.mjs` (CONFBUS_GATE_BENCH_ROUNDS to vary;
// CONFBUS_GATE_BENCH_WARM_BASELINE=1, below).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { compareThroughput, processCpuSeconds, threadCpuSeconds } from './lib/load.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';
import { PROFILES, repositoryFiles } from './contracts-bench.mjs';

export const title = 'Contract gate (server)';

const ROUNDS = Number(process.env.CONFBUS_GATE_BENCH_ROUNDS ?? 10);
/**
 * CONFBUS_GATE_BENCH_WARM_BASELINE=1: the baseline reads every environment after each push too, so both servers
 * hold the same environments in their caches (the gate builds them all): tells the gate's cost per request from
 * that of a fuller cache.
 */
const WARM_BASELINE = process.env.CONFBUS_GATE_BENCH_WARM_BASELINE === '1';

/** The server's Prometheus metrics as text. */
const metricsOf = async (base) => (await globalThis.fetch(`${base}/actuator/prometheus`)).text();

/** Sums the samples of the metric lines in `text` starting with `prefix` (NaN: none). */
function metricSum(text, prefix) {
  const lines = text.split('\n').filter((l) => l.startsWith(prefix));
  return lines.length === 0 ? NaN : lines.reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

/** The server's JS heap in use, in MB. */
const heapUsedMb = async (base) => metricSum(await metricsOf(base), 'nodejs_heap_size_used_bytes') / 2 ** 20;

/** Seconds the server has spent in garbage collection, by kind (minor: scavenges, major: mark-compact). */
async function gcSeconds(base) {
  const text = await metricsOf(base);
  const kinds = {};
  for (const kind of ['minor', 'major', 'incremental', 'weakcb'])
    kinds[kind] = metricSum(text, `nodejs_gc_duration_seconds_sum{kind="${kind}"}`);
  return kinds;
}

/** GETs every application's environments (the ones the gate judges), a few at a time. */
async function readEvery(base, applications) {
  const paths = [];
  for (let app = 0; app < applications; app++)
    for (const profile of PROFILES) paths.push(`${base}/app${app}/${profile}`);
  for (let i = 0; i < paths.length; i += 16)
    await Promise.all(
      paths.slice(i, i + 16).map(async (path) => (await globalThis.fetch(path)).arrayBuffer()),
    );
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor((xs.length - 1) / 2)];
const p95 = (xs) => sorted(xs)[Math.max(0, Math.ceil(0.95 * xs.length) - 1)];

/** ms from the webhook to /monitor's answer; `accepted` are the statuses that count as success. */
async function webhook(base, accepted = [200]) {
  const started = performance.now();
  const response = await globalThis.fetch(`${base}/monitor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    body: JSON.stringify({ commits: [{ modified: ['application.yml'] }] }),
  });
  const body = await response.text();
  if (!accepted.includes(response.status))
    throw new Error(`/monitor answered ${response.status}: ${body.slice(0, 500)}`);
  return performance.now() - started;
}

export async function run({ log }) {
  const temp = await makeTempDir('confbus-bench-gate-');
  const files = repositoryFiles(8080);
  const applications = Object.keys(files).filter((p) => p.startsWith('.confbus/contracts/')).length;
  log(`creating a repository of ${applications} applications × 3 profiles, a contract each`);
  const repo = await createConfigRepo(temp.path, 'gate', files);
  const start = (name, extraArgs) =>
    startConfbusServer({
      uri: repo.path,
      basedir: join(temp.path, name),
      refreshRate: 3600,
      extraArgs: ['--spring.cloud.bus.enabled=false', ...extraArgs],
      // CONFBUS_GATE_BENCH_PROFILE=<dir>: a CPU profile of each server, written when it stops.
      nodeArgs: process.env.CONFBUS_GATE_BENCH_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CONFBUS_GATE_BENCH_PROFILE}`]
        : [],
    });
  const gated = await start('gated', []);
  const ungated = await start('ungated', ['--confbus.contracts.gate.enabled=false']);
  try {
    // The first verdict reads every file and compiles every contract once, as a server does after its start.
    const first = await webhook(gated.url);
    log(`first verdict after start: ${fmt(first)} ms`);
    const verdicts = [];
    // The server CPU each verdict cost: what the wall time is made of when the machine is not loaded.
    const cpuMs = [];
    for (let round = 0; round < ROUNDS; round++) {
      await repo.push({ 'application.yml': files['application.yml'].replace('8080', String(9000 + round)) });
      const cpuBefore = processCpuSeconds(gated.child.pid);
      verdicts.push(await webhook(gated.url));
      cpuMs.push((processCpuSeconds(gated.child.pid) - cpuBefore) * 1000);
      // The baseline fetches the same commit (with no bus it answers 503 CONFBUS_BUS_DISABLED after fetching).
      await webhook(ungated.url, [200, 503]);
      if (WARM_BASELINE) await readEvery(ungated.url, applications);
      log(`round ${round + 1}/${ROUNDS}: webhook -> /monitor answer ${fmt(verdicts.at(-1))} ms`);
    }
    const url = (server) => `${server.url}/app7/prod`;
    const versions = [];
    for (const server of [gated, ungated]) {
      const response = await globalThis.fetch(url(server));
      if (response.status !== 200) throw new Error(`GET answered ${response.status}`);
      versions.push((await response.json()).version);
    }
    if (versions[0] !== versions[1])
      throw new Error(`the servers serve different commits: ${versions.join(', ')}`);
    const heaps = await Promise.all([gated, ungated].map((server) => heapUsedMb(server.url)));
    const gcBefore = await Promise.all([gated, ungated].map((server) => gcSeconds(server.url)));
    const threadsBefore = [gated, ungated].map((server) => threadCpuSeconds(server.child.pid));
    const cached = await compareThroughput({
      a: url(gated),
      b: url(ungated),
      rounds: 6,
      balanced: true,
      // Requests per second on a loaded machine mostly say which process got the cores: the CPU each request
      // cost its server is compared too.
      cpu: { a: () => processCpuSeconds(gated.child.pid), b: () => processCpuSeconds(ungated.child.pid) },
    });
    const gcAfter = await Promise.all([gated, ungated].map((server) => gcSeconds(server.url)));
    const requests = [cached.a.total, cached.b.total];
    const threadsAfter = [gated, ungated].map((server) => threadCpuSeconds(server.child.pid));
    // CPU per request by thread: the main thread's work against V8's helpers (concurrent marking, compiling).
    const threadsPerRequest = threadsAfter.map((after, i) =>
      Object.entries(after)
        .map(([name, s]) => [name, ((s - (threadsBefore[i][name] ?? 0)) * 1e6) / requests[i]])
        .filter(([, us]) => us >= 0.05)
        .map(([name, us]) => `${name} ${fmt(us)}`)
        .join(', '),
    );
    // GC pauses per request served in the comparison, by kind: where a gap in CPU per request comes from.
    const gcPerRequest = gcAfter.map((after, i) =>
      Object.entries(after)
        .map(([kind, s]) => `${kind} ${fmt(((s - gcBefore[i][kind]) * 1e6) / requests[i])}`)
        .join(', '),
    );
    const environments = applications * 3;
    const rows = [
      {
        measure: `gate verdict, push changing application.yml, ${environments} environments, ${applications} contracts: webhook -> /monitor answer, p95 ms`,
        confbus: fmt(p95(verdicts)),
        baseline: `first after start ${fmt(first)}`,
        ratio: '',
        goal: '<= 2000 ms',
        pass: p95(verdicts) <= 2000,
      },
      {
        measure: 'cached GET with the gate on (every application guarded) vs gate off, req/s',
        confbus: fmt(cached.a.rps),
        baseline: fmt(cached.b.rps),
        ratio: `${fmt(cached.ratio)}x`,
        goal: '>= 0.95x',
        pass: cached.ratio >= 0.95,
      },
      {
        measure:
          'cached GET with the gate on vs gate off, server CPU per request, µs (ratio: requests per CPU second)',
        confbus: fmt(cached.cpuPerRequest.a),
        baseline: fmt(cached.cpuPerRequest.b),
        ratio: `${fmt(cached.cpuRatio)}x`,
        goal: '>= 0.95x',
        pass: cached.cpuRatio >= 0.95,
      },
    ];
    const lines = [
      `- verdicts: median ${fmt(median(verdicts))}, p95 ${fmt(p95(verdicts))}, max ${fmt(Math.max(...verdicts))} ms over ${ROUNDS} pushes`,
      `- server CPU per verdict: median ${fmt(median(cpuMs))}, max ${fmt(Math.max(...cpuMs))} ms`,
      `- JS heap used before the comparison: gate on ${fmt(heaps[0])} MB, gate off ${fmt(heaps[1])} MB`,
      `- GC µs per request in the comparison: gate on ${gcPerRequest[0]}; gate off ${gcPerRequest[1]}`,
      `- CPU µs per request by thread: gate on ${threadsPerRequest[0]}; gate off ${threadsPerRequest[1]}`,
      `- cached GET per-round ratios: ${cached.perRound.map((r) => fmt(r)).join(', ')}`,
      `- cached GET per-round CPU-per-request ratios (off/on): ${cached.cpuPerRound.map((r) => fmt(r)).join(', ')}`,
    ];
    for (const line of lines) log(line.slice(2));
    return { rows, sections: [{ title: 'Contract gate (bench/contracts-gate-bench.mjs)', lines }] };
  } finally {
    await gated.stop();
    await ungated.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
