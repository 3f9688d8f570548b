// Load generators: autocannon for throughput, a hand-rolled keep-alive loop for sub-millisecond
// latencies (autocannon's histogram has 1 ms resolution), and a burst of N simultaneous requests.
import { Buffer } from 'node:buffer';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { GIT_ENV } from './repos.mjs';

const exec = promisify(execFile);

/**
 * Warm-up run (result discarded), then the measured run; both with `connections` keep-alive connections.
 * `expect(body)` (optional) must hold for every response, or the run is reported as broken.
 */
export async function throughput({ url, connections = 50, warmupSeconds = 3, seconds = 8, expect }) {
  const opts = { url, connections, timeout: 30, ...(expect ? { verifyBody: expect } : {}) };
  await autocannon({ ...opts, duration: warmupSeconds });
  const r = await autocannon({ ...opts, duration: seconds });
  const ok = r['2xx'] - r.mismatches;
  return {
    rps: ok / seconds,
    latencyMean: r.latency.mean,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    requests: r.requests.total,
    failed: r.non2xx + r.errors + r.timeouts + r.mismatches,
  };
}

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Throughput of `a` against `b` (each sent with its `headers`) in alternating rounds after one warm-up each, so that load from elsewhere on
 * a shared machine hits both sides alike. With `balanced`, the side that goes first alternates as well
 * (a b, b a, a b, ...), so a drift within a pair of runs favours neither side.
 * - `ratio`: the median of the per-round ratios a/b (paired, so a burst of load that hits one round cancels);
 * - `ratioOfMedians`: a.rps / b.rps, the ratio of the two per-side medians a table shows beside it;
 * - `ratioInterval`: a distribution-free 95% confidence interval of the per-round median, `[low, high]`
 *   (null below 6 rounds, too few for one): whether a run can tell a few percent apart at all.
 * With `cpu` ({ a, b }: each side's server process CPU seconds so far, e.g. processCpuSeconds(pid)), each round
 * also weighs the CPU each request cost its server, which other load on a shared machine barely moves (requests
 * per second there mostly measure who got the cores):
 * - `cpuPerRequest`: { a, b }, the median µs of server CPU per request;
 * - `cpuRatio`: the median of the per-round ratios b/a of those (a's requests per CPU second over b's).
 */
export async function compareThroughput({
  a,
  b,
  connections = 50,
  rounds = 3,
  warmupSeconds = 2,
  seconds = 4,
  balanced = false,
  headers = { a: {}, b: {} },
  cpu,
}) {
  const opts = { connections, timeout: 30 };
  const warmup = {
    a: await autocannon({ ...opts, url: a, headers: headers.a, duration: warmupSeconds }),
    b: await autocannon({ ...opts, url: b, headers: headers.b, duration: warmupSeconds }),
  };
  const runs = { a: [], b: [] };
  for (let i = 0; i < rounds; i++) {
    for (const side of balanced && i % 2 === 1 ? ['b', 'a'] : ['a', 'b']) {
      const cpuBefore = cpu?.[side]();
      const r = await autocannon({
        ...opts,
        url: side === 'a' ? a : b,
        headers: headers[side],
        duration: seconds,
      });
      const cpuUs = cpu === undefined ? undefined : ((cpu[side]() - cpuBefore) * 1e6) / r.requests.total;
      runs[side].push({
        requests: r.requests.total,
        cpuUs,
        rps: (r['2xx'] - r.mismatches) / seconds,
        p50: r.latency.p50,
        p99: r.latency.p99,
        failed: r.non2xx + r.errors + r.timeouts,
      });
    }
  }
  const side = (list, name) => ({
    /** Every request sent to this side, warm-up included. */
    total: list.reduce((n, r) => n + r.requests, warmup[name].requests.total),
    rps: median(list.map((r) => r.rps)),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    failed: list.reduce((n, r) => n + r.failed, 0),
    rounds: list.map((r) => r.rps),
  });
  const perRound = runs.a.map((r, i) => r.rps / runs.b[i].rps);
  const sides = { a: side(runs.a, 'a'), b: side(runs.b, 'b') };
  const cpuPerRound = cpu === undefined ? undefined : runs.a.map((r, i) => runs.b[i].cpuUs / r.cpuUs);
  return {
    ...sides,
    ...(cpu === undefined
      ? {}
      : {
          cpuPerRequest: { a: median(runs.a.map((r) => r.cpuUs)), b: median(runs.b.map((r) => r.cpuUs)) },
          cpuRatio: median(cpuPerRound),
          cpuPerRound,
        }),
    ratio: median(perRound),
    ratioOfMedians: sides.a.rps / sides.b.rps,
    ratioInterval: medianInterval(perRound),
    perRound,
  };
}

/**
 * A distribution-free confidence interval (at least 95%) of the median of `xs`: the order statistics
 * x(k) and x(n+1-k), k the largest with P(Binomial(n, 1/2) < k) <= 2.5%. Null when n is too small (< 6).
 */
export function medianInterval(xs) {
  const sorted = [...xs].sort((p, q) => p - q);
  const n = sorted.length;
  let k = 0;
  let tail = 0;
  let choose = 1; // C(n, j)
  for (let j = 0; j < n; j++) {
    tail += choose / 2 ** n;
    if (tail > 0.025) break;
    k = j + 1;
    choose = (choose * (n - j)) / (j + 1);
  }
  return k === 0 ? null : [sorted[k - 1], sorted[n - k]];
}

/** Sends one GET (with `headers`); resolves with status, headers and body. */
export function get(url, agent, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `concurrency` keep-alive loops issuing `count` requests in total, or as many as fit in `seconds`
 * (the bound keeps a slow server from stretching the suite); latencies in ms (µs resolution).
 */
export async function latency({ url, count = 2000, warmup = 300, concurrency = 1, seconds = 6 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    const run = async (n, out) => {
      let next = 0;
      const deadline = performance.now() + seconds * 1000;
      const loop = async () => {
        while (next < n && performance.now() < deadline) {
          next++;
          const t0 = performance.now();
          const res = await get(url, agent);
          if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${res.body}`);
          out?.push(performance.now() - t0);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, loop));
    };
    await run(warmup);
    const samples = [];
    await run(count, samples);
    return summarise(samples);
  } finally {
    agent.destroy();
  }
}

function summarise(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    count: sorted.length,
    samples,
  };
}

/**
 * Sequential latency of `a` against `b`, in `rounds` alternating blocks (a b, b a, a b, ...) after a
 * warm-up of each, so that load from elsewhere on a shared machine hits both sides alike. `ratio` is
 * the median of the per-round mean ratios a/b, which is far steadier than a ratio of overall means.
 */
export async function compareLatency({ a, b, count = 4000, rounds = 10, warmup = 500, seconds = 14 }) {
  await latency({ url: a, count: 0, warmup });
  await latency({ url: b, count: 0, warmup });
  const block = Math.ceil(count / rounds);
  const samples = { a: [], b: [] };
  const ratios = [];
  for (let i = 0; i < rounds; i++) {
    const means = {};
    for (const side of i % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
      const r = await latency({
        url: side === 'a' ? a : b,
        count: block,
        warmup: 0,
        seconds: seconds / rounds,
      });
      samples[side].push(...r.samples);
      means[side] = r.mean;
    }
    ratios.push(means.a / means.b);
  }
  return { a: summarise(samples.a), b: summarise(samples.b), ratio: median(ratios) };
}

/**
 * Opens `count` keep-alive connections (one warm-up request each, all at once), then runs `between()`
 * and fires `count` requests at the same moment over those connections, so the burst measures the
 * server and not TCP connection setup. Resolves with the burst's responses and its wall time.
 */
export async function burst({ url, count = 1000, between = async () => {} }) {
  const agent = new Agent({ keepAlive: true, maxSockets: count, maxFreeSockets: count });
  try {
    const warm = await Promise.all(Array.from({ length: count }, () => get(url, agent)));
    const warmFailed = warm.filter((r) => r.status !== 200).length;
    await between();
    const t0 = performance.now();
    const responses = await Promise.all(Array.from({ length: count }, () => get(url, agent)));
    return { responses, ms: performance.now() - t0, warmFailed };
  } finally {
    agent.destroy();
  }
}

/** Median wall time (ms) of `git <args>` over `runs` runs, after one untimed run. */
export async function timeGit(args, runs = 20) {
  await exec('git', args, { env: GIT_ENV });
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await exec('git', args, { env: GIT_ENV });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

/**
 * CPU seconds a process has used so far (user + system, /proc/<pid>/stat; Linux only, clock ticks of 10 ms),
 * for compareThroughput's `cpu`.
 */
export function processCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is the 3rd field, utime the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * CPU seconds of `pid`'s threads by name (/proc/<pid>/task/<tid>/comm: `node` for the main thread, V8's GC and
 * compiler helpers `V8 DefaultWorke`, libuv's pool `libuv-worker`, worker threads their own). Threads that
 * ended are not counted.
 */
export function threadCpuSeconds(pid) {
  const byName = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let name;
    let seconds;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      seconds = processCpuSeconds(`${pid}/task/${tid}`);
    } catch {
      continue; // the thread ended meanwhile
    }
    const key = tid === String(pid) ? 'main' : name;
    byName[key] = (byName[key] ?? 0) + seconds;
  }
  return byName;
}

/** USER_HZ: 100 on every Linux the benchmarks run on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;
