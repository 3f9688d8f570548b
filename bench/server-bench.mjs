// Config server benchmarks (issue text in /work/briefs/bench.md):
//   1. cached mode (refresh-rate 60) throughput vs a bare node:http server returning the same bytes;
//   2. fresh mode (refresh-rate 0) throughput and p99 vs a model of Spring's fetch-per-request backend;
//   3. upstream checks caused by 1,000 simultaneous requests right after a push;
//   4. warm latency with a 10,000-file repository vs a 10-file one.
// All servers are child processes on 127.0.0.1; the repositories are served over git:// by `git daemon`
// (the same transport for confbus and the baseline). Run alone: `node bench/server-bench.mjs`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { withServersPinnedApart } from './lib/cpu-affinity.mjs';
import { burst, compareLatency, compareThroughput, get, throughput, timeGit } from './lib/load.mjs';
import { startBaseline, startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, fillerFiles, makeTempDir, sampleConfigFiles } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Config server';

const STATIC_SERVER = new URL('./baselines/static-http-server.mjs', import.meta.url);
const SPRING_MODEL = new URL('./baselines/spring-git-model.mjs', import.meta.url);
const CONNECTIONS = 50;
const BURST = 1000;
const BURST_TRIALS = 3;
/** Alternating rounds of the cached comparison: enough for its median to resolve the 0.85x goal. */
const CACHED_ROUNDS = 5;

async function healthChecks(baseUrl) {
  const res = await get(`${baseUrl}/actuator/health`);
  const details = JSON.parse(res.body.toString()).components?.git?.details;
  if (typeof details?.checks !== 'number') {
    throw new Error(
      `/actuator/health has no components.git.details.checks: ${res.body.toString().slice(0, 300)}`,
    );
  }
  return details;
}

async function getOk(url) {
  const res = await get(url);
  if (res.status !== 200)
    throw new Error(`GET ${url} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return res;
}

function errorRow(measure, goal, err) {
  return {
    measure,
    confbus: `error: ${err.message.split('\n')[0].slice(0, 80)}`,
    baseline: '',
    ratio: '',
    goal,
    pass: null,
  };
}

export async function run({ log }) {
  const rows = [];
  const details = [];
  const note = (line) => {
    details.push(line);
    log(line.replace(/^- /, ''));
  };
  const measure = async (name, goal, fn) => {
    try {
      await fn();
    } catch (err) {
      log(`${name}: ${err.stack ?? err}`);
      rows.push(errorRow(name, goal, err));
      details.push(`- ${name}: failed: ${err.message.split('\n')[0]}`);
    }
  };

  const root = await makeTempDir('confbus-bench-');
  const reposDir = join(root.path, 'repos');
  await mkdir(reposDir);
  log('creating repositories (10 files; 10,000 files)');
  const small = await createConfigRepo(reposDir, 'small', { ...sampleConfigFiles(), ...fillerFiles(6) });
  await createConfigRepo(reposDir, 'large', { ...sampleConfigFiles(), ...fillerFiles(9996) });
  const { startGitDaemon } = await tsImport('@confbus/testkit/git-daemon', import.meta.url);
  const daemon = await startGitDaemon(reposDir);
  onCleanup(() => daemon.stop());
  const smallUri = daemon.url('small.git');
  const largeUri = daemon.url('large.git');
  const basedir = (name) => join(root.path, name);
  const path = '/foo/dev';

  // 1 + 4 share the cached server on the small repository.
  let cachedSmall;
  const m1 = 'cached GET throughput, req/s (refresh-rate 60)';
  await measure(m1, '>= 0.85x', async () => {
    cachedSmall = await startConfbusServer({
      uri: smallUri,
      basedir: basedir('cached-small'),
      refreshRate: 60,
    });
    const sample = await getOk(cachedSmall.url + path);
    const spec = join(root.path, 'static-response.json');
    const headers = { 'content-type': sample.headers['content-type'] };
    if (sample.headers['x-config-version']) headers['x-config-version'] = sample.headers['x-config-version'];
    await writeFile(spec, JSON.stringify({ headers, bodyBase64: sample.body.toString('base64') }));
    note(`- response for GET ${path}: ${sample.body.length} bytes, content-type ${headers['content-type']}`);

    log('1. cached confbus vs bare node:http (alternating rounds)');
    const baseline = await startBaseline(STATIC_SERVER, [spec]);
    const { pinned, result: cmp } = await withServersPinnedApart(
      [cachedSmall.child.pid, baseline.child.pid],
      () =>
        compareThroughput({
          a: cachedSmall.url + path,
          b: baseline.url + path,
          connections: CONNECTIONS,
          rounds: CACHED_ROUNDS,
        }),
    );
    await baseline.stop();
    const { a: cb, b: st, ratio } = cmp;
    rows.push({
      measure: m1,
      confbus: fmt(cb.rps),
      baseline: `${fmt(st.rps)} (bare node:http)`,
      ratio: `${fmt(ratio)}x`,
      goal: '>= 0.85x',
      pass: ratio >= 0.85,
    });
    const rounds = (x) => x.rounds.map((r) => fmt(r)).join(' / ');
    note(
      `- cached (median of ${cb.rounds.length} alternating 4 s rounds, ratio = median of per-round ratios; ` +
        `${pinned ? 'each server pinned to the last core, the load generator to the others' : 'not pinned to cores (no taskset)'}): ` +
        `confbus ${fmt(cb.rps)} req/s (${rounds(cb)}), p50 ${cb.p50} ms, p99 ${cb.p99} ms, failed ${cb.failed}; ` +
        `bare node:http ${fmt(st.rps)} req/s (${rounds(st)}), p50 ${st.p50} ms, p99 ${st.p99} ms, failed ${st.failed}`,
    );
  });

  const m4 = 'warm latency, 10,000 files vs 10, mean ms (median of rounds)';
  await measure(m4, '<= 1.20x', async () => {
    cachedSmall ??= await startConfbusServer({
      uri: smallUri,
      basedir: basedir('cached-small'),
      refreshRate: 60,
    });
    await getOk(cachedSmall.url + path);
    const cachedLarge = await startConfbusServer({
      uri: largeUri,
      basedir: basedir('cached-large'),
      refreshRate: 60,
    });
    const t0 = performance.now();
    await getOk(cachedLarge.url + path);
    const firstMs = performance.now() - t0;
    log('4. sequential latency, 10,000-file vs 10-file repository (alternating blocks)');
    const {
      a: l,
      b: s,
      ratio,
    } = await compareLatency({
      a: cachedLarge.url + path,
      b: cachedSmall.url + path,
    });
    // Noise floor: the same server against itself, measured the same way.
    const control = await compareLatency({
      a: cachedSmall.url + path,
      b: cachedSmall.url + path,
      count: 2000,
      seconds: 7,
    });
    await cachedLarge.stop();
    await cachedSmall.stop();
    rows.push({
      measure: m4,
      confbus: `${fmt(l.mean)} (10,000 files)`,
      baseline: `${fmt(s.mean)} (10 files)`,
      ratio: `${fmt(ratio)}x`,
      goal: '<= 1.20x',
      pass: ratio <= 1.2,
    });
    rows.push({
      measure: 'warm latency, 10,000 files vs 10, p50 ms',
      confbus: `${fmt(l.p50)} (10,000 files)`,
      baseline: `${fmt(s.p50)} (10 files)`,
      ratio: `${fmt(l.p50 / s.p50)}x`,
      goal: '<= 1.20x',
      pass: l.p50 / s.p50 <= 1.2,
    });
    note(
      `- warm latency (1 connection, sequential, 500 warm-up requests each, then alternating blocks; ${l.count} / ${s.count} requests measured): 10 files mean ${fmt(s.mean)} ms / p50 ${fmt(s.p50)} / p99 ${fmt(s.p99)}; ` +
        `10,000 files mean ${fmt(l.mean)} ms / p50 ${fmt(l.p50)} / p99 ${fmt(l.p99)}`,
    );
    note(`- noise floor of that comparison (10-file server against itself): ${fmt(control.ratio)}x`);
    note(
      `- first GET on a new server for the 10,000-file repository (includes whatever start-up left to do): ${fmt(firstMs)} ms`,
    );
  });

  // 2 + 3 share the fresh server.
  let fresh;
  const m2 = 'fresh GET throughput, req/s (refresh-rate 0)';
  const m2b = 'fresh p99 latency, ms / one upstream check';
  await measure(m2, '>= 100x', async () => {
    const checkMs = await timeGit(['ls-remote', smallUri], 20);
    note(`- one upstream check (git ls-remote over git://, median of 20): ${fmt(checkMs)} ms`);
    fresh = await startConfbusServer({ uri: smallUri, basedir: basedir('fresh-small'), refreshRate: 0 });
    await getOk(fresh.url + path);
    log('2. fresh confbus');
    const h0 = await healthChecks(fresh.url);
    const cb = await throughput({ url: fresh.url + path, connections: CONNECTIONS, seconds: 10 });
    const h1 = await healthChecks(fresh.url);
    const spring = await startBaseline(SPRING_MODEL, [smallUri, basedir('spring-model-work')]);
    log('2. Spring model');
    const sp = await throughput({ url: spring.url + path, connections: CONNECTIONS, seconds: 10 });
    await spring.stop();
    const ratio = cb.rps / sp.rps;
    rows.push({
      measure: m2,
      confbus: fmt(cb.rps),
      baseline: `${fmt(sp.rps)} (Spring model)`,
      ratio: `${fmt(ratio)}x`,
      goal: '>= 100x',
      pass: ratio >= 100,
    });
    const p99Checks = cb.p99 / checkMs;
    rows.push({
      measure: m2b,
      confbus: `${cb.p99}`,
      baseline: `${fmt(checkMs)} (ls-remote)`,
      ratio: `${fmt(p99Checks)} checks`,
      goal: '<= 3 checks',
      pass: p99Checks <= 3,
    });
    const checks = h1.checks - h0.checks;
    note(
      `- fresh: confbus ${fmt(cb.rps)} req/s, p50 ${cb.p50} ms, p99 ${cb.p99} ms, max ${cb.max} ms, failed ${cb.failed}; ` +
        `${checks} upstream checks (+warm-up) for ${cb.requests} requests (${fmt(cb.requests / Math.max(1, checks))} requests per check), ${h1.fetches - h0.fetches} fetches`,
    );
    note(
      `- fresh: Spring model ${fmt(sp.rps)} req/s, p50 ${sp.p50} ms, p99 ${sp.p99} ms, max ${sp.max} ms, failed ${sp.failed} (one fetch per request, serialised)`,
    );
  });

  const m3 = `${BURST.toLocaleString('en')} requests right after a push: upstream checks`;
  await measure(m3, '1-2', async () => {
    fresh ??= await startConfbusServer({ uri: smallUri, basedir: basedir('fresh-small'), refreshRate: 0 });
    const trials = [];
    for (let i = 0; i < BURST_TRIALS; i++) {
      log(`3. burst ${i + 1}/${BURST_TRIALS}`);
      let before;
      let commit;
      const b = await burst({
        url: fresh.url + path,
        count: BURST,
        between: async () => {
          before = await healthChecks(fresh.url);
          commit = await small.push({
            'foo-dev.yml': `${sampleConfigFiles()['foo-dev.yml']}bench:\n  push: ${i}\n`,
          });
        },
      });
      const after = await healthChecks(fresh.url);
      const ok = b.responses.filter((r) => r.status === 200).length;
      const current = b.responses.filter((r) => r.headers['x-config-version'] === commit).length;
      trials.push({
        checks: after.checks - before.checks,
        fetches: after.fetches - before.fetches,
        ok,
        current,
        ms: b.ms,
      });
    }
    await fresh.stop();
    const worst = Math.max(...trials.map((t) => t.checks));
    const allCurrent = trials.every((t) => t.current === BURST);
    rows.push({
      measure: m3,
      confbus: `${worst} (worst of ${BURST_TRIALS})`,
      baseline: `${BURST} fetches (Spring model)`,
      ratio: '',
      goal: '1-2',
      pass: worst >= 1 && worst <= 2,
    });
    for (const [i, t] of trials.entries()) {
      note(
        `- burst ${i + 1}: ${t.checks} checks, ${t.fetches} fetches, ${t.ok}/${BURST} answered 200, ` +
          `${t.current}/${BURST} carried the pushed commit, ${fmt(t.ms)} ms for the burst`,
      );
    }
    if (!allCurrent) note('- FRESHNESS: some responses after the push did not carry the pushed commit');
  });

  return { rows, sections: [{ title: 'Config server (bench/server-bench.mjs)', lines: details }] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  // The module object, not its URL: importing ourselves while our top-level await runs would deadlock.
  await runBenches([{ title, run }]);
}
