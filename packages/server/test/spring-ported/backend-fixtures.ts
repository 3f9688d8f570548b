/**
 * Fixtures of the ported repository and native-backend tests, rebuilt from what Spring's tests read: its
 * `config-repo` and `test1-config-repo` Git repositories, its `master-labeltest-config-repo`, and its
 * `src/test/resources/test` folder. `startServerIn` starts confbus with a working directory the test chose, for
 * settings Spring reads relative to it (`file:./...`, native defaults).
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { readSettingsFile } from '@confbus/core';
import { dirname, join } from 'node:path';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import pino from 'pino';
import { createAndListen } from '../git-server-harness.js';
import type { ConfigServer } from '../../src/index.js';

/** Spring's config-repo: `bar/staging` reads two files. */
export const CONFIG_REPO: Record<string, string> = {
  'application.yml': 'info:\n  foo: bar\nraw: true\n',
  'bar.properties': 'foo:bar\n',
};

/** Spring's test1-config-repo: `test1-svc/staging` reads two files. */
export const TEST1_REPO: Record<string, string> = {
  'application.yml': 'info:\n  foo: test1\n',
  'test1-svc.properties': 'username=foobar\npassword=password\n',
};

/** Spring's src/test/resources/test, as far as the native tests read it. */
export const NATIVE_FOLDER: Record<string, string> = {
  'foo.properties': 'foo:test_bar\n',
  'foo-development.properties': 'bar:spam\n',
  'bar.yml':
    'client:\n  test: Default\n---\nspring:\n  config:\n    activate:\n      on-profile: development\nclient:\n  test: Development\n',
  'baz.properties':
    'client.test=Default\n#---\nspring.config.activate.on-profile=development\nclient.test=Development\n',
  'import.yml': 'foo: importing\n\nspring.config.import:\n  - bar.yml\n  - import/foo.yml\n',
  'import/foo.yml': 'foo: imported\n',
  'dev/foo.properties': 'foo:dev_bar\n',
  'dev/app/application.properties': 'foo:app\n',
  'dev/applicationxyz/application.properties': 'foo:default-app\n',
  'dev/ignore/application.properties': 'foo:app\n',
  'mysql/application.properties': 'foo:mysql\n',
};

export async function remoteWith(files: Record<string, string>, name?: string): Promise<GitRemote> {
  const remote = await createGitRemote(name);
  await remote.commit(files);
  return remote;
}

export async function writeFolder(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
}

export interface ServerIn {
  readonly base: string;
  readonly server: ConfigServer;
  readonly work: TempDir;
  stop(): Promise<void>;
}

/**
 * A server whose working directory is a fresh folder holding `files` (the Git mirror's basedir inside it),
 * started with the settings `settingsIn` gives for that folder, and with `settingsFile` (one of `files`) read as
 * its settings file, as `confbus server` reads `./application.yml`.
 */
export async function startServerIn(
  files: Record<string, string>,
  settingsIn: (cwd: string) => Record<string, string>,
  settingsFile?: string,
): Promise<ServerIn> {
  const work = await makeTempDir('confbus-spring-cwd-');
  await writeFolder(work.path, files);
  const settings = settingsIn(work.path);
  const file =
    settingsFile === undefined
      ? undefined
      : readSettingsFile({ path: settingsFile, optional: false }, work.path, (path) =>
          readFileSync(path, 'utf8'),
        );
  const args = Object.entries({
    'server.port': '0',
    'server.address': '127.0.0.1',
    'spring.cloud.config.server.git.basedir': join(work.path, '.mirror'),
    ...settings,
  }).map(([key, value]) => `--${key}=${value}`);
  const { server, base } = await createAndListen(args, pino({ level: 'silent' }), work, undefined, file);
  return {
    base,
    server,
    work,
    async stop() {
      await server.close();
      await work.remove();
    },
  };
}
