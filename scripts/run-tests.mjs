#!/usr/bin/env node
// Runs every test file with node:test + tsx. Node 20's --test does not expand globs,
// so the files are collected here. Usage: node scripts/run-tests.mjs [--only <substring>] [files...]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
let only;
// Interop suites (real Spring peers, Java + Maven) run apart: `--interop` selects them, plain runs leave them out.
let interop = false;
const explicit = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--only') only = args[++i];
  else if (args[i] === '--interop') interop = true;
  else explicit.push(args[i]);
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

let files = explicit;
if (files.length === 0) {
  files = [];
  for (const base of ['packages', 'examples', 'e2e']) collect(join(root, base), files);
  files = files.filter((f) => f.includes('/test/') || f.startsWith('e2e/'));
  files = files.filter((f) => f.startsWith('e2e/interop/') === interop);
  if (!interop)
    console.log('e2e/interop: left to `npm run test:interop` (real Spring peers; needs Java 17+ and Maven)');
  if (only) files = files.filter((f) => f.includes(only));
  files.sort();
}
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// Two cores: run two files at a time; each file isolates itself (temp dirs, own vhost, own ports).
const concurrency = process.env.CONFBUS_TEST_CONCURRENCY ?? '2';
// Fault tests append rows here; the table is printed once every file has run.
const reportDir = mkdtempSync(join(tmpdir(), 'confbus-faults-'));
const reportFile = join(reportDir, 'faults.jsonl');
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, CONFBUS_FAULT_REPORT: reportFile } },
);
child.on('exit', (code, signal) => {
  if (existsSync(reportFile)) printFaultTable(readFileSync(reportFile, 'utf8'));
  rmSync(reportDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});

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
  const header = ['fault', 'clients', 'outcome', 'time to converge'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\nFault suite\n${line(header)}\n| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const c of cells) console.log(line(c));
}
