#!/usr/bin/env node
// Thin launcher kept outside dist/ so npm can link the bin before the first build. `run` and `render` start a
// child after confbus's own start, so they take the lean entry: bundled (scripts/bundle-cli.mjs) unless a package
// the bundle was made from was compiled again since (a `tsc -b` after `npm run build`), else as compiled.
import { readFileSync, statSync } from 'node:fs';

const command = process.argv[2];
if (command === 'run' || command === 'render') await import(followEntry());
else await import('../dist/main.js');

function followEntry() {
  const bundleDir = new URL('../dist/bundle/', import.meta.url);
  try {
    const { builtAtMs, builds } = JSON.parse(readFileSync(new URL('inputs.json', bundleDir), 'utf8'));
    // Build info that is not there (an installed package has none) was not written since.
    const rebuilt = (build) =>
      (statSync(new URL(build, bundleDir), { throwIfNoEntry: false })?.mtimeMs ?? 0) > builtAtMs;
    if (!builds.some(rebuilt)) return new URL('follow-main.js', bundleDir).href;
  } catch {
    // No bundle: built by `tsc -b` alone.
  }
  return '../dist/follow-main.js';
}
