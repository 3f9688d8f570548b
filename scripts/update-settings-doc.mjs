#!/usr/bin/env node
// Rewrites the settings tables in docs/settings.md between the settings markers from the code's own declarations,
// and docs/errors.md from the packages' error declarations (error-catalogue.mjs).
// `--check` exits non-zero when either is out of date (part of `npm run lint`).
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import prettier from 'prettier';

const readmePath = new URL('../docs/settings.md', import.meta.url);
const tables = execFileSync(process.execPath, [new URL('./settings-table.mjs', import.meta.url).pathname], {
  encoding: 'utf8',
}).trim();
const readme = readFileSync(readmePath, 'utf8');
const begin = '<!-- settings:begin -->';
const end = '<!-- settings:end -->';
const start = readme.indexOf(begin);
const stop = readme.indexOf(end);
if (start < 0 || stop < start) throw new Error('docs/settings.md has no settings markers');
const options = (await prettier.resolveConfig(readmePath.pathname)) ?? {};
const next = await prettier.format(
  `${readme.slice(0, start + begin.length)}\n${tables}\n${readme.slice(stop)}`,
  {
    ...options,
    parser: 'markdown',
  },
);
if (process.argv.includes('--check')) {
  if (next !== readme) {
    console.error('docs/settings.md settings tables are out of date: run `npm run docs`');
    process.exit(1);
  }
} else {
  writeFileSync(readmePath, next);
}

await updateErrorCatalogue();

/** docs/errors.md is generated whole by error-catalogue.mjs. */
async function updateErrorCatalogue() {
  const path = new URL('../docs/errors.md', import.meta.url);
  const text = execFileSync(process.execPath, [new URL('./error-catalogue.mjs', import.meta.url).pathname], {
    encoding: 'utf8',
  });
  const config = (await prettier.resolveConfig(path.pathname)) ?? {};
  const formatted = await prettier.format(text, { ...config, parser: 'markdown' });
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // Not written yet.
  }
  if (!process.argv.includes('--check')) writeFileSync(path, formatted);
  else if (formatted !== current) {
    console.error('docs/errors.md is out of date: run `npm run docs`');
    process.exit(1);
  }
}
