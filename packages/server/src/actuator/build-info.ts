/**
 * What `/actuator/info` says about this build: the package version and the commit it was built from.
 * A packed package carries `dist/build-info.json` (written by scripts/prepack.mjs); a server run from a
 * clone of the repository asks git once per process, and only when the package really sits in that clone
 * (installed under someone else's repository, that repository's commit would be a lie).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  readonly name: string;
  readonly version: string;
  readonly commit?: string;
  readonly time?: string;
}

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** Read once per process: every server a process wires (tests wire dozens) shares it. */
let buildInfo: BuildInfo | undefined;

export function readBuildInfo(): BuildInfo {
  buildInfo ??= readFromDisk();
  return buildInfo;
}

function readFromDisk(): BuildInfo {
  const manifest = JSON.parse(readFileSync(`${PACKAGE_DIR}package.json`, 'utf8')) as {
    name: string;
    version: string;
  };
  const recorded = readRecorded();
  return {
    name: manifest.name,
    version: manifest.version,
    ...(recorded ?? commitFromClone()),
  };
}

function readRecorded(): { commit?: string; time?: string } | undefined {
  try {
    return JSON.parse(readFileSync(`${PACKAGE_DIR}dist/build-info.json`, 'utf8')) as {
      commit?: string;
      time?: string;
    };
  } catch {
    return undefined;
  }
}

function commitFromClone(): { commit?: string } {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', PACKAGE_DIR, ...args], {
        encoding: 'utf8',
        timeout: 2000,
        stdio: 'pipe',
      }).trim();
    const top = git('rev-parse', '--show-toplevel');
    // packages/server sits two levels below the repository root in confbus's own clone.
    if (fileURLToPath(new URL('../../', `file://${PACKAGE_DIR}`)) !== `${top}/`) return {};
    return { commit: git('rev-parse', 'HEAD') };
  } catch {
    return {};
  }
}
