#!/usr/bin/env node
// Runs every test file with node:test + tsx. Node 20's --test does not expand globs,
// so the files are collected here. Usage: node scripts/run-tests.mjs [--only <substring>] [files...]
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
let only;
const explicit = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--only') only = args[++i];
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
  for (const base of ['packages', 'examples']) collect(join(root, base), files);
  files = files.filter((f) => f.includes('/test/'));
  if (only) files = files.filter((f) => f.includes(only));
  files.sort();
}
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// Two cores: run two files at a time; each file isolates itself (temp dirs, own vhost, own ports).
const concurrency = process.env.CONFBUS_TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { cwd: root, stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
