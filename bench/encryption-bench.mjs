// Encryption benchmarks:
//   1. cached GET throughput of an environment holding 100 {cipher} values (server-side decryption) against
//      the same environment with the same values in plain text: decryption happens once per build and is cached
//      with the environment, so a cached request should cost the same (goal >= 0.95x, met when both the ratio of
//      the two medians and the median of the paired per-round ratios meet it);
//   2. what decryption adds to the first (uncached) GET: 100 values under a symmetric key and under an RSA key.
// Servers are child processes on 127.0.0.1 serving file:// repositories. Run alone: `node bench/encryption-bench.mjs`.
import { generateKeyPairSync } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { AesTextEncryptor, RsaSecretEncryptor, parseRsaPrivateKeyPem } from '@confbus/core';
import { compareThroughput, get } from './lib/load.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Encryption';

const VALUES = 100;
const CONNECTIONS = 50;
/** Paired rounds of the cached comparison: 15 is enough for a 95% interval of the per-round median. */
const ROUNDS = 15;
const ROUND_SECONDS = 2;
const SYMMETRIC_KEY = 'bench key: correct horse battery staple';
const PATH = '/bench/default';

/** `bench.yml` with VALUES secrets, each written by `write(plain)`. */
function benchFile(write) {
  const lines = ['secrets:'];
  for (let i = 0; i < VALUES; i++)
    lines.push(`  value${i}: '${write(`secret value number ${i} for the benchmark`)}'`);
  return { 'bench.yml': `${lines.join('\n')}\nplain:\n  setting: visible\n`, 'other.yml': 'other: x\n' };
}

async function getOk(url) {
  const res = await get(url);
  if (res.status !== 200)
    throw new Error(`GET ${url} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return res;
}

/** A server on its own repository; the mirror is cloned (via another application) before anything is timed. */
async function serverFor(root, name, files, extraArgs) {
  const repo = await createConfigRepo(join(root, 'repos'), name, files);
  const server = await startConfbusServer({
    uri: pathToFileURL(repo.path).href,
    basedir: join(root, `mirror-${name}`),
    refreshRate: 60,
    extraArgs,
  });
  await getOk(`${server.url}/other/default`);
  return server;
}

/** Milliseconds of the first GET of PATH (the build), median over `runs` fresh servers. */
async function firstGetMs(root, name, files, extraArgs, runs = 3) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const server = await serverFor(root, `${name}-${i}`, files, extraArgs);
    const t0 = performance.now();
    const res = await getOk(server.url + PATH);
    times.push(performance.now() - t0);
    if (res.body.toString().includes('{cipher}')) throw new Error(`${name}: a {cipher} value was served`);
    await server.stop();
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

export async function run({ log }) {
  const rows = [];
  const details = [];
  const note = (line) => {
    details.push(line);
    log(line.replace(/^- /, ''));
  };
  const root = (await makeTempDir('confbus-bench-encryption-')).path;
  await mkdir(join(root, 'repos'));
  const symmetric = new AesTextEncryptor(SYMMETRIC_KEY, 'deadbeef');
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ format: 'pem', type: 'pkcs1' })
    .toString();
  const rsa = new RsaSecretEncryptor(parseRsaPrivateKeyPem(pem));
  const plainFiles = benchFile((text) => text);
  const symmetricFiles = benchFile((text) => `{cipher}${symmetric.encrypt(text)}`);
  const rsaFiles = benchFile((text) => `{cipher}${rsa.encrypt(text)}`);
  const keyArgs = [`--encrypt.key=${SYMMETRIC_KEY}`];

  const m1 = `cached GET throughput, ${VALUES} {cipher} values, req/s`;
  try {
    const encrypted = await serverFor(root, 'encrypted', symmetricFiles, keyArgs);
    const plain = await serverFor(root, 'plaintext', plainFiles, keyArgs);
    const a = await getOk(encrypted.url + PATH);
    const b = await getOk(plain.url + PATH);
    if (a.body.length !== b.body.length)
      note(`- note: response sizes differ (${a.body.length} vs ${b.body.length} bytes)`);
    log(`1. cached GET with ${VALUES} {cipher} values vs the same values in plain text (alternating rounds)`);
    // The two sides should be equal, and the goal is 5% apart: many short rounds, the side going first
    // alternating, so a burst of load from a neighbour hits both sides of a pair alike and is outvoted.
    const cmp = await compareThroughput({
      a: encrypted.url + PATH,
      b: plain.url + PATH,
      connections: CONNECTIONS,
      rounds: ROUNDS,
      seconds: ROUND_SECONDS,
      balanced: true,
    });
    await encrypted.stop();
    await plain.stop();
    // The row's ratio is the ratio of the two figures beside it; the paired estimate (median of the per-round
    // ratios) and its 95% interval follow it, and the goal holds only when both estimates meet it.
    const range = cmp.ratioInterval?.map((r) => fmt(r)).join('-');
    const paired = `per-round median ${fmt(cmp.ratio)}x${range ? `, 95% ${range}` : ''}`;
    rows.push({
      measure: m1,
      confbus: fmt(cmp.a.rps),
      baseline: `${fmt(cmp.b.rps)} (same values in plain text)`,
      ratio: `${fmt(cmp.ratioOfMedians)}x (${paired})`,
      goal: '>= 0.95x',
      pass: Math.min(cmp.ratioOfMedians, cmp.ratio) >= 0.95,
    });
    const rounds = (x) => x.rounds.map((r) => fmt(r)).join(' / ');
    note(
      `- cached, ${a.body.length}-byte response (medians of ${cmp.a.rounds.length} alternating ${ROUND_SECONDS} s rounds, ` +
        `${CONNECTIONS} connections): ${VALUES} {cipher} values ${fmt(cmp.a.rps)} req/s (${rounds(cmp.a)}), ` +
        `p99 ${cmp.a.p99} ms, failed ${cmp.a.failed}; plain ${fmt(cmp.b.rps)} req/s (${rounds(cmp.b)}), ` +
        `p99 ${cmp.b.p99} ms, failed ${cmp.b.failed}`,
    );
    note(
      `- ratio of the medians ${fmt(cmp.ratioOfMedians)}x; per-round ratios ` +
        `${cmp.perRound.map((r) => fmt(r)).join(' / ')}: ${paired} (a distribution-free confidence interval of that median)`,
    );
  } catch (err) {
    log(`${m1}: ${err.stack ?? err}`);
    rows.push({
      measure: m1,
      confbus: `error: ${err.message.split('\n')[0].slice(0, 80)}`,
      baseline: '',
      ratio: '',
      goal: '>= 0.95x',
      pass: null,
    });
  }

  const m2 = `first GET, ${VALUES} {cipher} values (build + decrypt), median ms`;
  try {
    log('2. first GET of the environment: plain, symmetric key, RSA key');
    const plainMs = await firstGetMs(root, 'first-plain', plainFiles, keyArgs);
    const symmetricMs = await firstGetMs(root, 'first-symmetric', symmetricFiles, keyArgs);
    const rsaMs = await firstGetMs(root, 'first-rsa', rsaFiles, [`--encrypt.key=${pem}`]);
    for (const [kind, ms] of [
      ['symmetric key', symmetricMs],
      ['RSA 2048 key', rsaMs],
    ]) {
      rows.push({
        measure: `${m2}, ${kind}`,
        confbus: fmt(ms),
        baseline: `${fmt(plainMs)} (plain text)`,
        ratio: `${fmt(ms / plainMs)}x`,
        goal: 'report',
        pass: null,
      });
    }
    note(
      `- first GET (a new server each time, mirror already cloned, median of 3): plain ${fmt(plainMs)} ms, ` +
        `symmetric ${fmt(symmetricMs)} ms, RSA ${fmt(rsaMs)} ms; later GETs of the same commit are cache hits (row above)`,
    );
  } catch (err) {
    log(`${m2}: ${err.stack ?? err}`);
    rows.push({
      measure: m2,
      confbus: `error: ${err.message.split('\n')[0].slice(0, 80)}`,
      baseline: '',
      ratio: '',
      goal: 'report',
      pass: null,
    });
  }

  return { rows, sections: [{ title: 'Encryption (bench/encryption-bench.mjs)', lines: details }] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
