// SSH as Spring configures it, against a real sshd on a loopback port with key pairs made by ssh-keygen: the
// key reaches ssh only through a 0600 file that is gone after each command, passphrase-protected PEM keys
// work, host keys are checked (host-key, known-hosts-file) or not (strict-host-key-checking=false), and
// settings Spring rejects stop the start with a message naming them, never quoting the key or passphrase.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isConfbusError } from '@confbus/core';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { generateSshKeyPair, startSshd, type SshKeyPair, type Sshd } from '@confbus/testkit/sshd';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { GitMirror, RepositoryUnavailableError } from '../../src/git/index.js';
import { isSshUri, needsSshCommand, type SshSettings } from '../../src/git/ssh.js';
import { captureLogger, type CaptureLogger } from './helpers.js';

const PASSPHRASE = 'correct horse battery';

describe('GitMirror over ssh:// (real sshd)', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  let sshd: Sshd;
  let plain: SshKeyPair;
  let pem: SshKeyPair;
  let encryptedOpenSsh: SshKeyPair;
  let stranger: SshKeyPair;
  let sshLog: string;
  let n = 0;
  const originalPath = process.env.PATH;
  const mirrors: GitMirror[] = [];

  const mirror = (ssh: Partial<SshSettings>, logger: CaptureLogger = captureLogger()) => {
    const m = new GitMirror({
      uri: sshd.url(remote.path),
      basedir: join(base.path, `m${n++}`),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      ssh: { strictHostKeyChecking: true, ignoreLocalSshSettings: true, ...ssh },
      logger,
    });
    mirrors.push(m);
    return m;
  };
  const withHostKey = (key: SshKeyPair): Partial<SshSettings> => ({
    privateKey: key.privateKey,
    hostKey: sshd.hostKey,
    hostKeyAlgorithm: sshd.hostKeyAlgorithm,
  });
  const settingsError = (make: () => unknown, pattern: RegExp) =>
    assert.throws(make, (e: unknown) => {
      assert.ok(isConfbusError(e) && e.code === 'CONFBUS_GIT_SSH_SETTINGS', String(e));
      assert.match(e.message, pattern);
      assert.ok(!e.message.includes(PASSPHRASE) && !e.message.includes('PRIVATE KEY'));
      return true;
    });

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'over: ssh\n' });
    base = await makeTempDir();
    plain = await generateSshKeyPair(base.path, { name: 'plain' });
    pem = await generateSshKeyPair(base.path, {
      name: 'pem',
      type: 'rsa',
      pem: true,
      passphrase: PASSPHRASE,
    });
    encryptedOpenSsh = await generateSshKeyPair(base.path, { name: 'enc', passphrase: PASSPHRASE });
    stranger = await generateSshKeyPair(base.path, { name: 'stranger' });
    sshd = await startSshd([plain.publicKey, pem.publicKey]);
    // An `ssh` shim first on PATH records the identity file it is given (mode and path), then runs ssh.
    const realSsh = execFileSync('sh', ['-c', 'command -v ssh']).toString().trim();
    sshLog = join(base.path, 'ssh.log');
    await writeFile(
      join(base.path, 'ssh'),
      `#!/bin/sh\nprev=\nfor a in "$@"; do\n  if [ "$prev" = "-i" ]; then stat -c '%a %n' "$a" >> '${sshLog}'; cat "$a" | head -1 >> '${sshLog}'; fi\n  prev="$a"\ndone\nexec '${realSsh}' "$@"\n`,
    );
    await chmod(join(base.path, 'ssh'), 0o755);
    process.env.PATH = `${base.path}:${originalPath ?? ''}`;
  });
  after(async () => {
    process.env.PATH = originalPath;
    await Promise.all(mirrors.map((m) => m.close()));
    await sshd?.stop();
    await remote?.remove();
    await base?.remove();
  });

  it('private-key + host-key: clones and sees pushes; the key is only in a 0600 file that is removed', async () => {
    const logger = captureLogger();
    const m = mirror(withHostKey(plain), logger);
    const first = await m.resolve('master');
    assert.equal((await m.readFile(first.commit, 'application.yml'))?.toString(), 'over: ssh\n');
    const pushed = await remote.commit({ 'application.yml': 'over: ssh again\n' });
    assert.equal((await m.resolve('master')).commit, pushed);

    const identities = (await readFile(sshLog, 'utf8')).trim().split('\n');
    const files = identities.filter((l) => /^\d{3} \//.test(l));
    assert.ok(files.length >= 2, 'ssh was given an identity file for each command');
    for (const line of files) {
      const [mode, path = ''] = line.split(' ');
      assert.equal(mode, '600');
      assert.ok(path.startsWith(join(tmpdir(), 'confbus-ssh-')), path);
    }
    for (const line of files)
      assert.ok(!existsSync(dirname(line.split(' ')[1] ?? '')), 'its directory is gone');
    const everything = `${logger.text()}\n${JSON.stringify(m.health())}`;
    assert.ok(!everything.includes(plain.privateKey.split('\n')[1] ?? 'x'), 'key material leaked');
    assert.equal(logger.entries.filter((e) => e.level === 'warn').length, 0);
  });

  it('a passphrase-protected PEM key is decrypted in-process (ssh gets a clear PKCS#8 key)', async () => {
    const logger = captureLogger();
    const m = mirror({ ...withHostKey(pem), passphrase: PASSPHRASE }, logger);
    assert.ok((await m.resolve('master')).commit);
    assert.match(await readFile(sshLog, 'utf8'), /-----BEGIN PRIVATE KEY-----/);
    assert.ok(!logger.text().includes(PASSPHRASE));
  });

  it('known-hosts-file instead of host-key', async () => {
    const knownHosts = join(base.path, 'known_hosts');
    await writeFile(knownHosts, `${sshd.knownHostsLine}\n`);
    const m = mirror({ privateKey: plain.privateKey, knownHostsFile: knownHosts });
    assert.ok((await m.resolve('master')).commit);
  });

  it("a host key that does not match is refused (ssh's reason in the error); strict-host-key-checking=false accepts it", async () => {
    const [algorithm = '', key = ''] = stranger.publicKey.split(' ');
    const wrong = { privateKey: plain.privateKey, hostKey: key, hostKeyAlgorithm: algorithm };
    const refused = mirror(wrong);
    await assert.rejects(refused.start(), (e: unknown) => {
      assert.ok(e instanceof RepositoryUnavailableError);
      assert.match(e.message, /Host key verification failed/);
      return true;
    });
    const lenient = mirror({ ...wrong, strictHostKeyChecking: false });
    assert.ok((await lenient.resolve('master')).commit);
  });

  it('no host key at all: accepted as Spring does, with a warning', async () => {
    const logger = captureLogger();
    const m = mirror({ privateKey: plain.privateKey }, logger);
    assert.ok((await m.resolve('master')).commit);
    assert.ok(
      logger.entries.some((e) => e.level === 'warn' && /host key is not checked/.test(String(e.msg))),
    );
  });

  it('a key the server does not know, or preferred-authentications it does not offer: "Permission denied"', async () => {
    await assert.rejects(mirror(withHostKey(stranger)).start(), /Permission denied \(publickey\)/);
    const onlyPasswords = mirror({ ...withHostKey(plain), preferredAuthentications: 'keyboard-interactive' });
    await assert.rejects(onlyPasswords.start(), /Permission denied/);
  });

  it('settings Spring rejects stop the start, naming the setting and never quoting the key', () => {
    settingsError(() => mirror({}), /private-key must be set when .*ignore-local-ssh-settings is true/);
    settingsError(
      () => mirror({ ...withHostKey(pem), passphrase: 'wrong passphrase' }),
      /private-key could not be decrypted with spring\.cloud\.config\.server\.git\.passphrase/,
    );
    settingsError(() => mirror({ privateKey: 'not a key' }), /private-key is not a valid private key/);
    settingsError(
      () => mirror({ privateKey: encryptedOpenSsh.privateKey, passphrase: PASSPHRASE }),
      /encrypted key in OpenSSH format.*ssh-keygen -p -m PEM/,
    );
    settingsError(
      () => mirror({ privateKey: plain.privateKey, hostKey: sshd.hostKey }),
      /host-key and .*host-key-algorithm must be set together/,
    );
    settingsError(
      () => mirror({ ...withHostKey(plain), hostKeyAlgorithm: 'ssh-foo' }),
      /host-key-algorithm must be one of ssh-dss, ssh-rsa/,
    );
    settingsError(
      () => mirror({ privateKey: plain.privateKey, knownHostsFile: join(base.path, 'nope') }),
      /known-hosts-file could not be found/,
    );
  });
});

describe('ssh settings helpers', () => {
  it('isSshUri: ssh schemes and scp-like addresses, nothing else', () => {
    for (const uri of ['ssh://git@h/r.git', 'git+ssh://h/r', 'git@github.com:org/r.git', 'host:r.git'])
      assert.ok(isSshUri(uri), uri);
    for (const uri of ['https://h/r.git', 'file:///srv/r.git', '/srv/r.git', 'git://h/r', 'C:\\repos\\r'])
      assert.ok(!isSshUri(uri), uri);
  });

  it("with Spring's defaults the machine's ssh setup (and an operator's GIT_SSH_COMMAND) is used as is", () => {
    assert.equal(needsSshCommand({ strictHostKeyChecking: true, ignoreLocalSshSettings: false }), false);
    assert.equal(needsSshCommand({ strictHostKeyChecking: false, ignoreLocalSshSettings: false }), true);
    assert.equal(needsSshCommand({ strictHostKeyChecking: true, ignoreLocalSshSettings: true }), true);
  });
});
