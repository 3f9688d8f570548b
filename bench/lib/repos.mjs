// Configuration repositories for the benchmarks: a bare upstream plus a work clone to push from,
// in a temp dir removed at the end of the run. Files are written in bulk and added with one
// `git add -A`, so a 10,000-file repository takes seconds, not minutes.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { onCleanup } from './cleanup.mjs';

const exec = promisify(execFile);

export const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Confbus Bench',
  GIT_AUTHOR_EMAIL: 'bench@confbus.invalid',
  GIT_COMMITTER_NAME: 'Confbus Bench',
  GIT_COMMITTER_EMAIL: 'bench@confbus.invalid',
  LANG: 'C',
};

export async function git(cwd, ...args) {
  const { stdout } = await exec('git', args, { cwd, env: GIT_ENV, maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** A temp dir removed by the run's cleanup (or earlier through the returned `remove`). */
export async function makeTempDir(prefix) {
  const path = await mkdtemp(join(tmpdir(), prefix));
  const remove = onCleanup(() => rm(path, { recursive: true, force: true }));
  return { path, remove };
}

async function writeFiles(root, files) {
  const dirs = new Set(Object.keys(files).map((f) => dirname(join(root, f))));
  for (const d of dirs) await mkdir(d, { recursive: true });
  const entries = Object.entries(files);
  // Bounded parallelism: fast, without opening 10,000 files at once.
  for (let i = 0; i < entries.length; i += 256) {
    await Promise.all(entries.slice(i, i + 256).map(([f, content]) => writeFile(join(root, f), content)));
  }
}

/**
 * Creates `<parent>/<name>.git` (bare, branch master) holding `files` in one commit.
 * `push(files)` commits more files from the work clone and pushes; it resolves with the new commit id.
 */
export async function createConfigRepo(parent, name, files) {
  const bare = join(parent, `${name}.git`);
  const work = join(parent, `${name}-work`);
  await git(parent, 'init', '--quiet', '--bare', '--initial-branch=master', bare);
  await git(parent, 'init', '--quiet', '--initial-branch=master', work);
  await git(work, 'remote', 'add', 'origin', bare);
  const push = async (changed, message = 'bench: update') => {
    await writeFiles(work, changed);
    await git(work, 'add', '-A');
    await git(work, 'commit', '--quiet', '--allow-empty', '-m', message);
    await git(work, 'push', '--quiet', 'origin', 'master');
    return (await git(work, 'rev-parse', 'HEAD')).trim();
  };
  const initial = await push(files, `bench: ${Object.keys(files).length} files`);
  // A packed upstream, as a real server's repository would be after gc.
  await git(bare, 'gc', '--quiet');
  return { name, path: bare, initial, push };
}

/**
 * The files a request for app `foo`, profile `dev` reads (application.yml, application-dev.yml, foo.yml,
 * foo-dev.yml), with realistic nesting, lists and ~40 keys each.
 */
export function sampleConfigFiles() {
  const block = (app, tier) => {
    const lines = [
      `${app}:`,
      `  tier: ${tier}`,
      '  datasource:',
      `    url: jdbc:postgresql://db-${tier}.internal:5432/${app}`,
      '    username: svc_user',
      '    pool:',
      '      max-size: 20',
      '      min-idle: 2',
      '      timeout-ms: 30000',
      '  features:',
    ];
    for (let i = 0; i < 10; i++) lines.push(`    flag-${i}: ${i % 2 === 0}`);
    lines.push('  endpoints:');
    for (let i = 0; i < 5; i++)
      lines.push(`    - name: ep-${i}`, `      url: https://svc-${i}.internal/${tier}`);
    lines.push('  messages:');
    for (let i = 0; i < 10; i++) lines.push(`    greeting-${i}: "Hello ${i} from ${app} (${tier})"`);
    lines.push(
      'logging:',
      '  level:',
      `    root: ${tier === 'dev' ? 'DEBUG' : 'INFO'}`,
      `    com.example.${app}: WARN`,
    );
    return lines.join('\n') + '\n';
  };
  return {
    'application.yml': block('shared', 'base'),
    'application-dev.yml': block('shared', 'dev'),
    'foo.yml': block('foo', 'base'),
    'foo-dev.yml': block('foo', 'dev'),
  };
}

/** `count` more files that a request for foo/dev does not read: other apps' configs in the root folder. */
export function fillerFiles(count) {
  const files = {};
  for (let i = 0; i < count; i++) {
    files[`svc-${String(i).padStart(5, '0')}${i % 3 === 0 ? '-prod' : ''}.yml`] =
      `svc-${i}:\n  port: ${8000 + (i % 1000)}\n  owner: team-${i % 17}\n  enabled: true\n`;
  }
  return files;
}
