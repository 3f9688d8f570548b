#!/usr/bin/env node
// Runs before `npm pack`/`npm publish` of a workspace package (its `prepack` script, cwd = the package):
// builds it with its project references, so a tarball never ships stale dist/, and copies the repository's
// LICENSE beside its package.json, where npm picks it up (the copies are git-ignored; the root file is the one).
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const packageDir = process.cwd();
// Builds before the build info moved out of dist/ left it there; it must not ship.
rmSync(join(packageDir, 'dist/.tsbuildinfo'), { force: true });
// A package whose Node part has its own project (the console's tsconfig.node.json) names it as the argument.
const project = join(packageDir, process.argv[2] ?? '');
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', project], {
  stdio: 'inherit',
});
copyFileSync(join(root, 'LICENSE'), join(packageDir, 'LICENSE'));
// The commit a tarball is built from, for /actuator/info (packages/server/src/actuator/build-info.ts).
try {
  const commit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  writeFileSync(
    join(packageDir, 'dist/build-info.json'),
    `${JSON.stringify({ commit, time: new Date().toISOString() })}\n`,
  );
} catch {
  // Not built from a git clone (a source tarball): /actuator/info then shows the version only.
}
