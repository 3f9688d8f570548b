// `node bench/hostile-input.mjs` (after `npm run build`): how long one hostile input blocks the event loop.
// Not part of `npm run bench`: it measures stalls (the longest event-loop delay, perf_hooks'
// monitorEventLoopDelay) rather than throughput, for the inputs of issue #15:
//   - a bus destination pattern with many `*` matched against a bus id (core's matcher, synchronous);
//   - a placeholder bomb (`p_i: ${p_{i-1}}${p_{i-1}}`) rendered by a real server (GET /bomb-default.yml);
//   - a large YAML file (many keys) served by a real server (GET /big/default);
//   - a large multi-document YAML file;
//   - files just within the default limits (max-file-bytes 1 MiB, max-file-documents 1,000), on a server with
//     the default settings, requested as JSON, v2 JSON and a rendered .yml, one at a time and four at once;
//   - a 9 MB YAML file (issue #23): over max-file-bytes, refused by the size git announces before it is read,
//     requested ten times, two at a time.
// Each row: the HTTP status (or the match result), the longest stall, the slowest answer of /actuator/health asked
// in a loop meanwhile (rows on the default-limits server), and the wall time of the request.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { matchesServicePattern, resolveSettings } from '@confbus/core';
import { createConfigServer, serverSettingSpecs } from '@confbus/server';
import pino from 'pino';
import { runCleanups } from './lib/cleanup.mjs';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';

const { fetch } = globalThis;
const rows = [];
const ms = (n) => `${n.toFixed(0)} ms`;

/** With `healthOf` (a server's base URL), GET /actuator/health is asked in a loop meanwhile: its slowest answer. */
async function measure(name, action, healthOf) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  // Let the monitor's timer start before the work.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  let done = false;
  let slowestHealth = 0;
  const probing = (async () => {
    while (healthOf !== undefined && !done) {
      const asked = performance.now();
      await (await fetch(`${healthOf}/actuator/health`)).arrayBuffer();
      slowestHealth = Math.max(slowestHealth, performance.now() - asked);
    }
  })();
  const outcome = await action().finally(() => (done = true));
  const wall = performance.now() - started;
  await probing;
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  const health = healthOf === undefined ? '' : ms(slowestHealth);
  rows.push({ name, outcome: String(outcome), stall: ms(histogram.max / 1e6), health, wall: ms(wall) });
}

const BUS_ID = 'sample:dev:8081:0123456789abcdef0123456789abcdef';
for (const stars of [6, 7, 8]) {
  const pattern = `**:${'*'.repeat(stars)}z`;
  await measure(`destination '${pattern}' vs a bus id`, async () => matchesServicePattern(pattern, BUS_ID));
}

function bombFile(levels) {
  const lines = ['p0: "xx"'];
  for (let i = 1; i <= levels; i++) lines.push(`p${i}: "\${p${i - 1}}\${p${i - 1}}"`);
  return `${lines.join('\n')}\n`;
}

function bigYaml(keys) {
  const lines = [];
  for (let i = 0; i < keys; i++) lines.push(`key${i}:\n  nested${i % 7}: value number ${i}`);
  return `${lines.join('\n')}\n`;
}

function manyDocuments(documents) {
  const parts = [];
  for (let i = 0; i < documents; i++) parts.push(`doc${i}: ${i}\nshared: ${i}`);
  return `${parts.join('\n---\n')}\n`;
}

/** Documents of `keys` properties each (within max-file-documents). */
function documentsOfKeys(documents, keys) {
  const parts = [];
  for (let i = 0; i < documents; i++)
    parts.push(Array.from({ length: keys }, (_, k) => `doc${i}.key${k}: value ${k} of ${i}`).join('\n'));
  return `${parts.join('\n---\n')}\n`;
}

const temp = await makeTempDir('confbus-hostile-');
const files = {
  'bomb.yml': bombFile(18),
  'big.yml': bigYaml(50_000),
  'docs.yml': manyDocuments(20_000),
  'nearkeys.yml': bigYaml(25_000),
  'neardocs.yml': documentsOfKeys(1_000, 25),
  'nine.yml': bigYaml(220_000),
};
const repo = await createConfigRepo(temp.path, 'hostile', files);
const repoUrl = `file://${repo.path}`;
async function startServer(name, extraArgs) {
  const settings = resolveSettings(
    serverSettingSpecs,
    {
      args: [
        '--server.port=0',
        '--server.address=127.0.0.1',
        `--spring.cloud.config.server.git.uri=${repoUrl}`,
        `--spring.cloud.config.server.git.basedir=${temp.path}/mirror-${name}`,
        '--spring.cloud.config.server.git.clone-on-start=true',
        ...extraArgs,
      ],
      env: {},
    },
    { unknownKeys: 'keep' },
  );
  const server = await createConfigServer({ settings, logger: pino({ level: 'silent' }), cwd: temp.path });
  const base = await server.listen();
  const get = async (path, headers = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    await response.arrayBuffer();
    return response.status;
  };
  await get('/warmup/default');
  return { server, get, base };
}

// Let the large files through the size limits (where the build has them) to measure their parsing.
const { server, get } = await startServer('raised', [
  '--confbus.server.max-file-bytes=16777216',
  '--confbus.server.max-environment-bytes=33554432',
]);
const defaults = await startServer('defaults', []);
const V2 = { accept: 'application/vnd.spring-cloud.config-server.v2+json' };
try {
  await measure('placeholder bomb, 18 levels (GET /bomb-default.yml)', () => get('/bomb-default.yml'));
  await measure(`large YAML, 50,000 keys, ${(files['big.yml'].length / 1e6).toFixed(1)} MB`, () =>
    get('/big/default'),
  );
  await measure(
    `multi-document YAML, 20,000 documents, ${(files['docs.yml'].length / 1e6).toFixed(1)} MB`,
    () => get('/docs/default'),
  );
  for (const [file, what] of [
    ['nearkeys', `${(files['nearkeys.yml'].length / 1e6).toFixed(2)} MB YAML of 25,000 keys`],
    ['neardocs', `${(files['neardocs.yml'].length / 1e6).toFixed(2)} MB YAML of 1,000 documents`],
  ]) {
    await measure(
      `${what}, default limits, GET /${file}/default`,
      () => defaults.get(`/${file}/default`),
      defaults.base,
    );
    await measure(`  same, v2 JSON`, () => defaults.get(`/${file}/default`, V2), defaults.base);
    await measure(
      `  same, GET /${file}-default.yml`,
      () => defaults.get(`/${file}-default.yml`),
      defaults.base,
    );
    // Distinct profiles: four renderings, not one shared from the cache.
    await measure(
      `  same, 4 at once (GET /${file}-p1..4.yml)`,
      async () => {
        const statuses = await Promise.all([1, 2, 3, 4].map((p) => defaults.get(`/${file}-p${p}.yml`)));
        return statuses.join(',');
      },
      defaults.base,
    );
  }
  await measure(
    `${(files['nine.yml'].length / 1e6).toFixed(1)} MB YAML, default limits, 10 x GET /nine/default, 2 at once`,
    async () => {
      const statuses = [];
      for (let i = 0; i < 5; i++)
        statuses.push(...(await Promise.all([defaults.get('/nine/default'), defaults.get(`/nine/p${i}`)])));
      return [...new Set(statuses)].join(',');
    },
    defaults.base,
  );
} finally {
  await server.close();
  await defaults.server.close();
  await runCleanups();
}

const header = {
  name: 'input',
  outcome: 'outcome',
  stall: 'longest stall',
  health: 'slowest health',
  wall: 'wall time',
};
const widths = Object.fromEntries(
  Object.keys(header).map((k) => [k, Math.max(...[header, ...rows].map((r) => r[k].length))]),
);
const line = (r) =>
  `| ${Object.keys(header)
    .map((k) => r[k].padEnd(widths[k]))
    .join(' | ')} |`;
console.log(line(header));
console.log(
  `| ${Object.keys(header)
    .map((k) => '-'.repeat(widths[k]))
    .join(' | ')} |`,
);
for (const r of rows) console.log(line(r));
