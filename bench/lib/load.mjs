// Load generators: autocannon for throughput, a hand-rolled keep-alive loop for sub-millisecond
// latencies (autocannon's histogram has 1 ms resolution), and a burst of N simultaneous requests.
import { Buffer } from 'node:buffer';
import { execFile } from 'node:child_process';
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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Throughput of `a` against `b` in alternating rounds (a, b, a, b, ...) after one warm-up each, so
 * that load from elsewhere on a shared machine hits both sides alike. The ratio is the median of the
 * per-round ratios a/b; rps figures are per-side medians.
 */
export async function compareThroughput({
  a,
  b,
  connections = 50,
  rounds = 3,
  warmupSeconds = 2,
  seconds = 4,
}) {
  const opts = { connections, timeout: 30 };
  await autocannon({ ...opts, url: a, duration: warmupSeconds });
  await autocannon({ ...opts, url: b, duration: warmupSeconds });
  const runs = { a: [], b: [] };
  for (let i = 0; i < rounds; i++) {
    for (const side of ['a', 'b']) {
      const r = await autocannon({ ...opts, url: side === 'a' ? a : b, duration: seconds });
      runs[side].push({
        rps: (r['2xx'] - r.mismatches) / seconds,
        p50: r.latency.p50,
        p99: r.latency.p99,
        failed: r.non2xx + r.errors + r.timeouts,
      });
    }
  }
  const side = (list) => ({
    rps: median(list.map((r) => r.rps)),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    failed: list.reduce((n, r) => n + r.failed, 0),
    rounds: list.map((r) => r.rps),
  });
  return {
    a: side(runs.a),
    b: side(runs.b),
    ratio: median(runs.a.map((r, i) => r.rps / runs.b[i].rps)),
  };
}

/** Sends one GET; resolves with status, headers and body. */
export function get(url, agent) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
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
