// Console API benchmarks: every console API call against a 10,000-file repository with 2,000 commits, p95 of
// sequential requests after a warm-up (goal <= 50 ms), plus the first (cold) answers after start and the page's
// JavaScript size gzipped (goal <= 150 KB). The server runs as a child process with refresh-rate 0, so every
// call includes the upstream check a default server makes. Run alone: `node bench/console-bench.mjs`.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { get, latency } from './lib/load.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { GIT_ENV, fillerFiles, git, makeTempDir, sampleConfigFiles } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Console API';

const FILES = 10_000;
const COMMITS = 2_000;
const GOAL_MS = 50;
const DIST = fileURLToPath(new URL('../packages/console/dist/page/assets/', import.meta.url));

/** A bare repository built with `git fast-import`: one commit of FILES files, then COMMITS - 1 small ones. */
async function createHistoryRepo(dir) {
  const bare = join(dir, 'history.git');
  await git(dir, 'init', '--quiet', '--bare', '--initial-branch=master', bare);
  const files = { ...sampleConfigFiles(), ...fillerFiles(FILES - 4) };
  const names = Object.keys(files);
  const chunks = [];
  const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let i = 1; i <= COMMITS; i++) {
    const when = 1_700_000_000 + i * 60;
    chunks.push(
      `commit refs/heads/master\nmark :${i}\n`,
      `author Bench Author <bench@confbus.invalid> ${when} +0000\ncommitter Bench <bench@confbus.invalid> ${when} +0000\n`,
      data(i === 1 ? `bench: ${FILES} files` : `bench: change ${i}`),
    );
    if (i === 1) for (const name of names) chunks.push(`M 100644 inline ${name}\n`, data(files[name]));
    else {
      // Every tenth commit touches foo's files (the application measured); the others touch one other service.
      const name = i % 10 === 0 ? (i % 20 === 0 ? 'foo.yml' : 'foo-dev.yml') : names[4 + (i % (FILES - 4))];
      chunks.push(`M 100644 inline ${name}\n`, data(`${files[name]}bench:\n  change: ${i}\n`));
    }
    if (i === COMMITS / 2) chunks.push(`reset refs/tags/v1\nfrom :${i}\n\n`);
  }
  await new Promise((resolve, reject) => {
    const child = spawn('git', ['fast-import', '--quiet'], {
      cwd: bare,
      env: GIT_ENV,
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}`)),
    );
    child.stdin.end(chunks.join(''));
  });
  await git(bare, 'gc', '--quiet');
  return bare;
}

function p95(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
}

async function timed(url) {
  const t0 = performance.now();
  const res = await get(url);
  if (res.status !== 200)
    throw new Error(`GET ${url} answered ${res.status}: ${res.body.toString().slice(0, 200)}`);
  return performance.now() - t0;
}

async function bundleKilobytes() {
  let total = 0;
  for (const file of await readdir(DIST)) {
    if (file.endsWith('.js')) total += gzipSync(await readFile(join(DIST, file)), { level: 9 }).length;
  }
  return total / 1024;
}

export async function run({ log }) {
  const rows = [];
  const details = [];
  const root = await makeTempDir('confbus-console-bench-');
  log(
    `creating a ${FILES.toLocaleString('en')}-file repository with ${COMMITS.toLocaleString('en')} commits`,
  );
  const bare = await createHistoryRepo(root.path);
  const midCommit = (await git(bare, 'rev-parse', 'v1')).trim();
  const server = await startConfbusServer({
    uri: pathToFileURL(bare).href,
    basedir: join(root.path, 'mirror'),
    refreshRate: 0,
    // A loaded machine can take more than the default 5 s to clone 10,000 files.
    extraArgs: [
      '--spring.cloud.config.server.git.clone-on-start=true',
      '--spring.cloud.config.server.git.timeout=120',
    ],
  });
  const api = `${server.url}/-/console/api`;
  const calls = [
    ['overview', 'overview'],
    ['labels', 'labels'],
    ['applications (first page)', 'applications?limit=50'],
    ['applications (page 100, filtered)', 'applications?filter=svc-0&offset=5000&limit=50'],
    ["an application's commits", 'applications/foo/commits?limit=20'],
    ["an application's commits, page 6", 'applications/foo/commits?offset=100&limit=20'],
    ["a rarely changed application's commits", 'applications/svc-04242/commits?limit=20'],
    ['commit', `commits/${midCommit}`],
    ['environment', 'environment?application=foo&profiles=dev'],
    ['environment, filtered', 'environment?application=foo&profiles=dev&filter=datasource'],
    ['environment download (.yml)', 'environment/download?application=foo&profiles=dev&format=yml'],
    ['diff between commits', `diff?application=foo&profiles=dev&from=${midCommit}&to=master`],
    ['diff of the last push', 'diff?application=foo&profiles=dev'],
    ['fleet', 'fleet'],
    ['refresh events', 'refresh-events'],
    ['session', 'session'],
  ];
  try {
    // The baseline: Spring's environment endpoint on the same server, which makes the same upstream check.
    const env = await latency({ url: `${server.url}/foo/dev`, count: 200, warmup: 20, seconds: 4 });
    const envP95 = p95(env.samples);
    details.push(
      `- baseline: GET /foo/dev (environment endpoint) p50 ${fmt(env.p50)} ms, p95 ${fmt(envP95)} ms`,
    );
    for (const [name, path] of calls) {
      const cold = await timed(`${api}/${path}`);
      const result = await latency({ url: `${api}/${path}`, count: 200, warmup: 20, seconds: 4 });
      const value = p95(result.samples);
      rows.push({
        measure: `console API: ${name}, p95`,
        confbus: `${fmt(value)} ms`,
        baseline: `${fmt(envP95)} ms (GET /foo/dev)`,
        ratio: `${fmt(value / envP95)}x`,
        goal: `<= ${GOAL_MS} ms`,
        pass: value <= GOAL_MS,
      });
      const line = `- ${name} (\`${path.split('?')[0]}\`): first call ${fmt(cold)} ms, then p50 ${fmt(result.p50)} ms, p95 ${fmt(value)} ms over ${result.count} requests`;
      details.push(line);
      log(line.slice(2));
    }
  } finally {
    await server.stop();
  }
  // The console's own cost, without an upstream check per call: the same calls on a server with refresh-rate 60.
  const cached = await startConfbusServer({
    uri: pathToFileURL(bare).href,
    basedir: join(root.path, 'mirror-cached'),
    refreshRate: 60,
    extraArgs: [
      '--spring.cloud.config.server.git.clone-on-start=true',
      '--spring.cloud.config.server.git.timeout=120',
    ],
  });
  let slowest = { name: '', value: 0 };
  try {
    for (const [name, path] of calls) {
      const url = `${cached.url}/-/console/api/${path}`;
      await timed(url);
      const value = p95((await latency({ url, count: 100, warmup: 10, seconds: 2 })).samples);
      if (value > slowest.value) slowest = { name, value };
      details.push(`- refresh-rate 60: ${name} p95 ${fmt(value)} ms`);
      log(`refresh-rate 60: ${name} p95 ${fmt(value)} ms`);
    }
  } finally {
    await cached.stop();
  }
  rows.push({
    measure: 'console API, refresh-rate 60: slowest call, p95',
    confbus: `${fmt(slowest.value)} ms`,
    baseline: slowest.name,
    ratio: '',
    goal: `<= ${GOAL_MS} ms`,
    pass: slowest.value <= GOAL_MS,
  });
  const kb = await bundleKilobytes();
  rows.push({
    measure: 'console JavaScript, gzipped',
    confbus: `${fmt(kb)} KB`,
    baseline: '',
    ratio: '',
    goal: '<= 150 KB',
    pass: kb <= 150,
  });
  details.push(
    `- repository: ${FILES.toLocaleString('en')} files, ${COMMITS.toLocaleString('en')} commits (foo's files touched by every tenth), refresh-rate 0 (each call checks upstream over file://)`,
  );
  return { rows, sections: [{ title: 'Console API (bench/console-bench.mjs)', lines: details }] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
