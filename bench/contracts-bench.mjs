// Contracts benchmark (issue #26): a repository of 500 applications × 3 profiles (default, dev, prod), each
// application with a contract of its own, and a push that changes application.yml, so every environment changes.
// Measured, in rounds that each start cold (fresh caches, as a new process would):
//   1. `confbus check --commit` end to end, a child process as CI or a pre-receive hook runs it: time to the
//      verdict for all 1,500 environments (the later server gate's goal is p95 <= 2 s from webhook to answer);
//   2. the same work in this process: environments built by the server's EnvironmentService and validated,
//      against the baseline of building them alone (what the server does for the push anyway);
//   3. the contracts library alone: validating the 1,500 built environments, with a fresh compiler (500 schemas
//      compiled) and with a warm one (a server keeps its compiled schemas between pushes).
// Run alone: `npx tsc -b && node bench/contracts-bench.mjs` (CONFBUS_CONTRACTS_BENCH_APPS / _ROUNDS to vary).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { SchemaCompiler, contractsFor, parseContract, validateEnvironment } from '@confbus/contracts';
import { LocalGitRepository, openOfflineEnvironments } from '@confbus/server/offline';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Contracts (confbus check)';

const exec = promisify(execFile);
const CONFBUS_BIN = fileURLToPath(new URL('../packages/cli/bin/confbus.js', import.meta.url));
const APPS = Number(process.env.CONFBUS_CONTRACTS_BENCH_APPS ?? 500);
const ROUNDS = Number(process.env.CONFBUS_CONTRACTS_BENCH_ROUNDS ?? 7);
export const PROFILES = ['default', 'dev', 'prod'];
const CONCURRENCY = 8;

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor((xs.length - 1) / 2)];
const p95 = (xs) => sorted(xs)[Math.max(0, Math.ceil(0.95 * xs.length) - 1)];
const spread = (xs) => `median ${fmt(median(xs))}, p95 ${fmt(p95(xs))}, max ${fmt(Math.max(...xs))} ms`;

/** 500 applications with ~20 keys each, a profile file per profile, and a contract each. */
export function repositoryFiles(serverPort) {
  const files = {
    'application.yml': `server:\n  port: ${serverPort}\nmanagement:\n  endpoints: {web: {exposure: {include: health}}}\n`,
    'application-dev.yml': 'logging.level.root: DEBUG\n',
    'application-prod.yml': 'logging.level.root: WARN\n',
  };
  for (let i = 0; i < APPS; i++) {
    const app = `app${i}`;
    const keys = Array.from({ length: 16 }, (_, k) => `  setting${k}: value-${i}-${k}`).join('\n');
    files[`${app}.yml`] =
      `${app}:\n  url: https://${app}.example/api\n  pool-size: 5\n  timeout: 30s\n  hosts: [a.example, b.example]\n${keys}\n`;
    files[`${app}-dev.yml`] = `${app}:\n  pool-size: 2\n`;
    files[`${app}-prod.yml`] = `${app}:\n  pool-size: 20\n`;
    files[`.confbus/contracts/${app}.schema.json`] = JSON.stringify(contractOf(app));
  }
  return files;
}

function contractOf(app) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      server: { type: 'object', properties: { port: { type: 'integer', minimum: 1, maximum: 65535 } } },
      [app]: {
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri' },
          'pool-size': { type: 'integer', minimum: 1, maximum: 100 },
          timeout: { type: 'string', pattern: '^\\d+(ms|s|m)$' },
          hosts: { type: 'array', items: { type: 'string', format: 'hostname' }, minItems: 1 },
        },
        patternProperties: { '^setting\\d+$': { type: 'string', minLength: 1 } },
        additionalProperties: false,
        required: ['url', 'pool-size'],
      },
    },
    required: ['server', app],
  };
}

async function timed(work) {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

async function eachWithin(items, limit, work) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Builds every environment at `commit` with a fresh EnvironmentService; optionally validates each as built. */
async function buildAll(gitDir, commit, contracts, compiler) {
  const repository = new LocalGitRepository(gitDir);
  const environments = openOfflineEnvironments({ repository, displayUri: '', searchPaths: [] });
  const built = [];
  let violations = 0;
  try {
    const targets = [];
    for (let i = 0; i < APPS; i++)
      for (const profile of PROFILES) targets.push({ application: `app${i}`, profiles: [profile] });
    await eachWithin(targets, CONCURRENCY, async (target, index) => {
      const environment = await environments.find([target.application], target.profiles, commit);
      built[index] = { ...target, environment };
      if (compiler)
        violations += validateEnvironment(
          built[index],
          contractsFor(target.application, contracts),
          compiler,
        ).length;
    });
  } finally {
    await environments.close();
    await repository.close();
  }
  return { built, violations };
}

export async function run({ log }) {
  const rows = [];
  const details = [];
  const note = (line) => {
    details.push(line);
    log(line.replace(/^- /, ''));
  };
  const temp = await makeTempDir('confbus-bench-contracts-');
  log(`creating a repository of ${APPS} applications × ${PROFILES.length} profiles, a contract each`);
  const files = repositoryFiles(8080);
  const repo = await createConfigRepo(temp.path, 'contracts', files);
  // The push every round judges: application.yml changes, so every environment does; its port breaks no contract.
  const commit = await repo.push({ 'application.yml': files['application.yml'].replace('8080', '9090') });
  const contracts = Object.entries(files)
    .filter(([path]) => path.startsWith('.confbus/contracts/'))
    .map(([path, text]) => parseContract(path, path.slice(19, -12), text));

  const cli = [];
  const inProcess = [];
  const buildOnly = [];
  const coldValidation = [];
  const warmValidation = [];
  const warm = new SchemaCompiler();
  for (let round = 0; round < ROUNDS; round++) {
    const check = await timed(() =>
      exec(process.execPath, [CONFBUS_BIN, 'check', '--repo', repo.path, '--commit', commit]).then(
        (done) => ({ code: 0, stderr: done.stderr }),
        (failed) => ({ code: failed.code, stderr: failed.stderr }),
      ),
    );
    if (check.result.code !== 0) throw new Error(`confbus check failed: ${check.result.stderr}`);
    if (round === 0) note(`- ${check.result.stderr.trim()}`);
    cli.push(check.ms);
    const both = await timed(() => buildAll(repo.path, commit, contracts, new SchemaCompiler()));
    if (both.result.violations !== 0) throw new Error(`${both.result.violations} unexpected violations`);
    inProcess.push(both.ms);
    const build = await timed(() => buildAll(repo.path, commit, contracts, undefined));
    buildOnly.push(build.ms);
    const validateAll = (compiler) => () => {
      for (const target of build.result.built)
        validateEnvironment(target, contractsFor(target.application, contracts), compiler);
    };
    coldValidation.push((await timed(async () => validateAll(new SchemaCompiler())())).ms);
    warmValidation.push((await timed(async () => validateAll(warm)())).ms);
    log(
      `round ${round + 1}/${ROUNDS}: check ${fmt(check.ms)} ms, build+validate ${fmt(both.ms)} ms, build ${fmt(build.ms)} ms`,
    );
  }
  const environments = APPS * PROFILES.length;
  rows.push({
    measure: `confbus check --commit, ${environments} environments, ${APPS} contracts, p95 ms`,
    confbus: fmt(p95(cli)),
    baseline: `${fmt(p95(buildOnly))} (building them only, in process)`,
    ratio: `${fmt(p95(cli) / p95(buildOnly))}x`,
    goal: '<= 2000 ms (server gate, later)',
    pass: p95(cli) <= 2000,
  });
  rows.push({
    measure: `build + validate ${environments} environments in process, p95 ms`,
    confbus: fmt(p95(inProcess)),
    baseline: `${fmt(p95(buildOnly))} (build only)`,
    ratio: `${fmt(p95(inProcess) / p95(buildOnly))}x`,
    goal: 'reported',
    pass: null,
  });
  rows.push({
    measure: `validation alone, ${environments} environments, p95 ms`,
    confbus: `${fmt(p95(coldValidation))} cold / ${fmt(p95(warmValidation))} warm`,
    baseline: `${fmt(p95(buildOnly))} (build only)`,
    ratio: `${fmt(p95(coldValidation) / p95(buildOnly))}x / ${fmt(p95(warmValidation) / p95(buildOnly))}x`,
    goal: 'reported',
    pass: null,
  });
  note(`- confbus check (child process, node start included): ${spread(cli)}`);
  note(`- build + validate in process: ${spread(inProcess)}; build only: ${spread(buildOnly)}`);
  note(
    `- validation alone: cold compiler (${APPS} schemas compiled) ${spread(coldValidation)}; ` +
      `warm compiler ${spread(warmValidation)}`,
  );
  note(`- ${ROUNDS} rounds, each with fresh caches; ${join('bench', 'contracts-bench.mjs')}`);
  return { rows, sections: [{ title: 'Contracts (bench/contracts-bench.mjs)', lines: details }] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
