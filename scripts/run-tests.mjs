#!/usr/bin/env node
// Builds, then runs test files with node:test + tsx under c8 (V8's own coverage, mapped back to the .ts
// sources through the build's source maps). Node 20's --test does not expand globs, so the files are
// collected here.
//
// Usage: node scripts/run-tests.mjs [--only <substring>] [--interop] [--tier fast] [--no-coverage] [files...]
//   no files, no --only: every test file except e2e/interop/; the coverage floor is enforced.
//   --interop: the e2e/interop/ suites (real Spring peers) instead.
//   --tier fast: the fast tier, the files named `*.fast.test.ts` (fakes, pure code, loopback HTTP in this
//     process), without coverage, all in one process (fastTierEntry). They run with PATH holding node alone, so a fast test that reaches for git,
//     ssh, rabbitmqctl, java, mvn or chromium fails at once instead of quietly needing it.
//   --no-coverage: no c8, no report, no floor.
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
/** Lines of packages/<p>/src covered by the whole suite, at least (percent). */
const LINE_COVERAGE_FLOOR = 85;

const args = process.argv.slice(2);
let only;
// Interop suites (real Spring peers, Java + Maven) run apart: `--interop` selects them, plain runs leave them out.
let interop = false;
let coverage = true;
let fastTier = false;
const explicit = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--only') only = args[++i];
  else if (args[i] === '--interop') interop = true;
  else if (args[i] === '--no-coverage') coverage = false;
  else if (args[i] === '--tier') {
    if (args[++i] !== 'fast') fail(`unknown tier ${args[i]} (the one named tier is fast)`);
    fastTier = true;
    coverage = false;
  } else if (args[i].startsWith('--')) fail(`unknown option ${args[i]}`);
  else explicit.push(relative(root, resolve(args[i])));
}

function fail(message) {
  console.error(`run-tests: ${message}`);
  process.exit(1);
}

function collect(dir, out) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) collect(full, out);
    else if (entry.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out;
}

/** Every test file the runner knows how to run (interop ones included). */
function collectAll() {
  const files = [];
  for (const base of ['packages', 'examples', 'e2e']) collect(join(root, base), files);
  return files.filter((f) => f.includes('/test/') || f.startsWith('e2e/')).sort();
}

/** A test file git tracks that the patterns above miss would silently never run: refuse instead. */
function checkTrackedAreCollected(collected) {
  let tracked;
  try {
    tracked = execFileSync('git', ['ls-files', '*.test.ts'], { cwd: root, encoding: 'utf8' });
  } catch {
    console.log('run-tests: not a git checkout, so tracked test files are not checked');
    return;
  }
  const known = new Set(collected);
  const missed = tracked.split('\n').filter((f) => f !== '' && !known.has(f));
  if (missed.length > 0)
    fail(
      `tracked test files outside the runner's patterns (packages/*/test/, examples/*/test/, e2e/):\n  ${missed.join('\n  ')}`,
    );
}

const all = collectAll();
checkTrackedAreCollected(all);

let files = explicit;
const wholeSuite = explicit.length === 0 && only === undefined && !interop && !fastTier;
/** The fast tier is named by the file: `<name>.fast.test.ts`; every other test file needs a real component. */
const FAST_SUFFIX = '.fast.test.ts';
if (files.length === 0 && fastTier) {
  files = all.filter((f) => f.endsWith(FAST_SUFFIX));
  if (only) files = files.filter((f) => f.includes(only));
} else if (files.length === 0) {
  files = all.filter((f) => f.startsWith('e2e/interop/') === interop);
  if (!interop)
    console.log('e2e/interop: left to `npm run test:interop` (real Spring peers; needs Java 17+ and Maven)');
  if (only) files = files.filter((f) => f.includes(only));
}
for (const file of files) if (!existsSync(join(root, file))) fail(`no such test file: ${file}`);
if (files.length === 0) fail('no test files found');

// Tests import the packages' dist/ (and run the CLI from it): a stale build would test old code.
console.log('run-tests: npm run build');
try {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
} catch {
  fail('the build failed');
}

// Two cores: run two files at a time; each file isolates itself (temp dirs, own vhost, own ports).
const concurrency = process.env.CONFBUS_TEST_CONCURRENCY ?? '2';
// Fault tests append rows here; the table is printed once every file has run.
const reportDir = mkdtempSync(join(tmpdir(), 'confbus-tests-'));
const reportFile = join(reportDir, 'faults.jsonl');
const coverageDir = join(reportDir, 'coverage');
const testCommand = [
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${concurrency}`,
  '--test-reporter=spec',
  ...(fastTier ? ['--test-force-exit', fastTierEntry(files)] : files),
];
// c8 follows child processes too (the CLI servers and clients the e2e tests start) through NODE_V8_COVERAGE.
const command = coverage
  ? [
      join(root, 'node_modules/c8/bin/c8.js'),
      '--reporter=json-summary',
      `--reports-dir=${coverageDir}`,
      `--temp-directory=${join(reportDir, 'v8')}`,
      // Paths are matched after the source maps took dist/*.js back to src/*.ts.
      '--exclude-after-remap',
      '--include=packages/*/src/**',
      '--include=packages/*/dist/**',
      '--exclude=packages/testkit/**',
      process.execPath,
      ...testCommand,
    ]
  : testCommand;
// Servers started without a basedir keep their mirrors in the cache home (docs/deploy.md): the run's own, removed
// with the report folder, so no test leaves mirrors in the user's ~/.cache.
const env = { ...process.env, FAULT_REPORT_FILE: reportFile, XDG_CACHE_HOME: join(reportDir, 'cache') };
delete env.CACHE_DIRECTORY;
// The fast tier's promise (no external tool) is kept by what it can run: node, and nothing else on PATH.
if (fastTier) env.PATH = nodeOnlyPath();
const started = performance.now();
const child = spawn(process.execPath, command, { cwd: root, stdio: 'inherit', env });
child.on('exit', (code, signal) => {
  let status = code ?? (signal ? 1 : 0);
  if (fastTier)
    console.log(
      `run-tests: fast tier, ${files.length} files in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  if (existsSync(reportFile)) printFaultTable(readFileSync(reportFile, 'utf8'));
  const summary = join(coverageDir, 'coverage-summary.json');
  if (coverage && existsSync(summary)) {
    const lines = printCoverage(JSON.parse(readFileSync(summary, 'utf8')));
    if (wholeSuite && lines < LINE_COVERAGE_FLOOR) {
      console.error(
        `run-tests: line coverage ${lines.toFixed(1)}% is below the floor of ${LINE_COVERAGE_FLOOR}%`,
      );
      if (status === 0) status = 1;
    } else if (!wholeSuite) console.log('(a subset ran: the coverage floor applies to the whole suite only)');
  }
  rmSync(reportDir, { recursive: true, force: true });
  process.exit(status);
});

/**
 * The fast tier runs in one process: one file importing every selected test file, so their tests register and run
 * there. Node's --test gives each file a process of its own, and for files whose tests take milliseconds that
 * start (Node, the tsx loader, the packages) was most of the time: 105 files took 74.5 s that way and 14 s in one
 * process on the same machine. Fast tests use fakes and their own loopback servers, nothing process-wide, so they
 * can share one. `--test-force-exit` ends it when the last test has: a handle some test left open (a keep-alive
 * socket, a timer) would otherwise hold the process for its timeout.
 */
function fastTierEntry(testFiles) {
  const entry = join(reportDir, 'fast-tier.test.mts');
  const imports = testFiles.map((file) => `import ${JSON.stringify(pathToFileURL(join(root, file)).href)};`);
  writeFileSync(entry, `${imports.join('\n')}\n`);
  return entry;
}

/** A folder holding only a link to this node, rebuilt for each run (node's own folder may hold npm, git...). */
function nodeOnlyPath() {
  const bin = join(reportDir, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

function printFaultTable(text) {
  const rows = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const cells = rows.map((r) => [
    r.fault,
    String(r.clients),
    r.outcome,
    r.convergeMs === undefined ? '-' : `${r.convergeMs} ms`,
  ]);
  printTable('Fault suite', ['fault', 'clients', 'outcome', 'time to converge'], cells);
}

/** Lines covered per package (packages/<p>/src), then in total; returns the total percentage. */
function printCoverage(summary) {
  const perPackage = new Map();
  for (const [file, counts] of Object.entries(summary)) {
    if (file === 'total') continue;
    const name = /packages\/([^/]+)\/(?:src|dist)\//.exec(file)?.[1] ?? relative(root, file);
    const sum = perPackage.get(name) ?? { covered: 0, total: 0 };
    sum.covered += counts.lines.covered;
    sum.total += counts.lines.total;
    perPackage.set(name, sum);
  }
  const percent = ({ covered, total }) => (total === 0 ? 100 : (100 * covered) / total);
  const row = (name, sum) => [name, `${percent(sum).toFixed(1)}%`, `${sum.covered}/${sum.total}`];
  const cells = [...perPackage.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([n, s]) => row(n, s));
  const total = { covered: summary.total.lines.covered, total: summary.total.lines.total };
  cells.push(row('total', total));
  printTable('Line coverage of packages/*/src (c8)', ['package', 'lines', 'covered/total'], cells);
  return percent(total);
}

function printTable(title, header, cells) {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${title}\n${line(header)}\n| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const c of cells) console.log(line(c));
}
