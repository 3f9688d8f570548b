/**
 * The embedded sample: with `confbus.server.sample-repository=true` (what `npm start` sets), `confbus server`
 * creates (once) a small git repository under `.confbus/sample-config-repo` and serves it, so a first try shows
 * something real. Never implied by a missing uri: a typo there must not serve sample values to real clients.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const sampleFiles: Record<string, string> = {
  'application.yml': [
    '# Shared by every application (lowest precedence).',
    'group:',
    '  profile: default',
    '  comment: shared defaults from application.yml',
    'info:',
    '  served-by: confbus',
    '',
  ].join('\n'),
  'sample-dev.yml': ['group:', '  profile: dev', '  comment: development settings for sample', ''].join('\n'),
  'sample-real.yml': ['group:', '  profile: real', '  comment: production settings for sample', ''].join(
    '\n',
  ),
  'sample.yml': [
    '# A multi-document file: the second document applies only to the dev profile.',
    'greeting: hello from sample.yml',
    'features:',
    '  - search',
    '  - export',
    '---',
    'spring:',
    '  config:',
    '    activate:',
    '      on-profile: dev',
    'greeting: hello from the dev document of sample.yml',
    '',
  ].join('\n'),
};

/** Creates the sample repository if it is not there yet; returns its path. */
export async function ensureSampleRepository(dir: string): Promise<{ path: string; created: boolean }> {
  try {
    await access(join(dir, '.git'));
    return { path: dir, created: false };
  } catch {
    // not there yet
  }
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(sampleFiles)) await writeFile(join(dir, name), text);
  const git = (...args: string[]) =>
    run('git', ['-c', 'user.name=confbus', '-c', 'user.email=confbus@localhost', ...args], { cwd: dir });
  await git('init', '--quiet', '--initial-branch=main');
  await git('add', '--all');
  await git('commit', '--quiet', '--message', 'Sample configuration');
  return { path: dir, created: true };
}
