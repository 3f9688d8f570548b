/**
 * A `git` first on PATH that records every invocation's argv, then runs the real git: the fuzz tests check that
 * no request-supplied value became an option or named another upstream. PATH is this process's, so the server
 * under test must run in it (in-process, as the fuzz tests start it).
 */
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from './temp-dir.js';

export interface GitArgvShim {
  /** The shim's folder (it holds `git` and `argv.log`, nothing else unless a payload ran there). */
  readonly path: string;
  /** The argv of every git invocation so far, in order. */
  invocations(): Promise<string[][]>;
  /** Restores PATH and removes the folder. */
  remove(): Promise<void>;
}

export async function installGitArgvShim(): Promise<GitArgvShim> {
  const folder = await makeTempDir('confbus-git-shim-');
  const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
  const log = join(folder.path, 'argv.log');
  // NUL after each argument, RS after each invocation.
  await writeFile(
    join(folder.path, 'git'),
    `#!/bin/sh\nprintf '%s\\0' "$@" >> '${log}'\nprintf '\\036' >> '${log}'\nexec '${realGit}' "$@"\n`,
  );
  await chmod(join(folder.path, 'git'), 0o755);
  const originalPath = process.env.PATH;
  process.env.PATH = `${folder.path}:${originalPath ?? ''}`;
  return {
    path: folder.path,
    async invocations() {
      const text = await readFile(log, 'utf8').catch(() => '');
      return text
        .split('\u001e')
        .filter((entry) => entry.length > 0)
        .map((entry) => entry.split('\0').filter((arg) => arg.length > 0));
    },
    async remove() {
      process.env.PATH = originalPath;
      await folder.remove();
    },
  };
}
