#!/usr/bin/env node
// Runs after `npm pack`/`npm publish` of a workspace package (its `postpack` script, cwd = the package): removes
// the build info prepack.mjs wrote for the tarball. Left in dist/, it would make a server run from this clone
// report the commit of the last pack instead of the clone's own (build-info.ts prefers a recorded one).
import { rmSync } from 'node:fs';
import { join } from 'node:path';

rmSync(join(process.cwd(), 'dist/build-info.json'), { force: true });
