/**
 * The real `confbus server` reading a private repository over ssh:// from a real sshd, configured by a YAML
 * settings file with Spring's SSH block (as Spring's reference documentation writes it). The key never shows
 * in the server's output.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { CONFBUS_BIN, getJson, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { generateSshKeyPair, startSshd, type SshKeyPair, type Sshd } from '@confbus/testkit/sshd';
import { makeTempDir } from '@confbus/testkit/temp-dir';

describe('confbus server over ssh:// (real sshd, Spring-style settings file)', () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let sshd: Sshd;
  let key: SshKeyPair;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'greeting: over ssh\n' });
    temp = await makeTempDir();
    key = await generateSshKeyPair(temp.path, { type: 'ecdsa', pem: true, passphrase: 'a long passphrase' });
    sshd = await startSshd([key.publicKey]);
  });
  after(async () => {
    await stopAllNodeProcesses();
    await sshd?.stop();
    await remote?.remove();
    await temp?.remove();
  });

  it('serves the repository with the key, passphrase and host key from the settings file', async () => {
    const indentedKey = key.privateKey
      .trim()
      .split('\n')
      .map((line) => `            ${line}`)
      .join('\n');
    const settingsFile = join(temp.path, 'application.yml');
    await writeFile(
      settingsFile,
      [
        'spring:',
        '  cloud:',
        '    config:',
        '      server:',
        '        git:',
        `          uri: ${sshd.url(remote.path)}`,
        '          ignore-local-ssh-settings: true',
        `          host-key: ${sshd.hostKey}`,
        `          host-key-algorithm: ${sshd.hostKeyAlgorithm}`,
        '          passphrase: a long passphrase',
        '          private-key: |',
        indentedKey,
        '',
      ].join('\n'),
    );
    const server = await startConfbusServer({
      gitUri: sshd.url(remote.path),
      basedir: join(temp.path, 'mirror'),
      args: [`--spring.config.location=${settingsFile}`],
    });
    const config = await getJson(`${server.url}/application/default`);
    assert.equal(config.status, 200, JSON.stringify(config.body));
    assert.match(JSON.stringify(config.body), /"greeting":"over ssh"/);
    const output = server.process.lines.join('\n');
    assert.ok(!output.includes(key.privateKey.split('\n')[1] ?? 'x'), 'key material in the output');
    assert.ok(!output.includes('a long passphrase'), 'passphrase in the output');
    await server.process.stop();
  });

  it('SSH settings Spring rejects stop the start, naming the setting', async () => {
    const child = startNodeProcess(CONFBUS_BIN, [
      'server',
      '--server.port=0',
      '--server.address=127.0.0.1',
      `--spring.cloud.config.server.git.uri=${sshd.url(remote.path)}`,
      `--spring.cloud.config.server.git.basedir=${join(temp.path, 'no-key-mirror')}`,
      '--spring.cloud.config.server.git.ignore-local-ssh-settings=true',
    ]);
    assert.equal(await child.exited, 1);
    assert.ok(
      child.lines.some((l) =>
        l.includes(
          'confbus: spring.cloud.config.server.git.private-key must be set when spring.cloud.config.server.git.ignore-local-ssh-settings is true',
        ),
      ),
      child.lines.join('\n'),
    );
  });
});
