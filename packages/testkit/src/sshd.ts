// A real OpenSSH server for transport tests: Debian's sshd on 127.0.0.1 and a free port, with its own host key,
// config and authorized_keys in a temp dir (nothing of the machine's ssh setup is used or changed). It lets the
// current user in with the keys given and runs git-upload-pack for ssh:// clones. Key pairs come from
// ssh-keygen. sshd is /usr/sbin/sshd (Debian's openssh-server; .ci/run installs it when missing).
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { reserveFreePort } from './confbus-processes.js';
import { canConnect } from './git-daemon.js';
import { makeTempDir } from './temp-dir.js';

const exec = promisify(execFile);
export const SSHD = '/usr/sbin/sshd';

export interface SshKeyPair {
  /** Path of the private key file (0600). */
  readonly privateKeyPath: string;
  /** The private key text, as a settings file would hold it. */
  readonly privateKey: string;
  /** "<algorithm> <base64>" */
  readonly publicKey: string;
}

export interface Sshd {
  readonly port: number;
  /** The user the server lets in (the current user). */
  readonly user: string;
  /** Host key algorithm and base64 key, as Spring's host-key-algorithm and host-key want them. */
  readonly hostKeyAlgorithm: string;
  readonly hostKey: string;
  /** A known_hosts line for this server ("[127.0.0.1]:port algorithm key"). */
  readonly knownHostsLine: string;
  /** ssh:// URL of an absolute repository path on this machine. */
  url(repositoryPath: string): string;
  /** sshd's log so far (its -e stderr). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * A key pair made by ssh-keygen. `pem`: traditional PEM (RSA/ECDSA only) rather than OpenSSH's format;
 * `passphrase`: encrypt it (PEM keys are encrypted with AES-128-CBC, OpenSSH keys with bcrypt + AES).
 */
export async function generateSshKeyPair(
  dir: string,
  options: { name?: string; type?: 'ed25519' | 'rsa' | 'ecdsa'; pem?: boolean; passphrase?: string } = {},
): Promise<SshKeyPair> {
  const path = join(dir, options.name ?? 'id_test');
  const type = options.type ?? 'ed25519';
  await exec('ssh-keygen', [
    '-q',
    '-t',
    type,
    ...(type === 'rsa' ? ['-b', '2048'] : []),
    ...(options.pem ? ['-m', 'PEM'] : []),
    '-N',
    options.passphrase ?? '',
    '-C',
    'confbus-test',
    '-f',
    path,
  ]);
  const publicKey = (await readFile(`${path}.pub`, 'utf8')).trim().split(' ').slice(0, 2).join(' ');
  return { privateKeyPath: path, privateKey: await readFile(path, 'utf8'), publicKey };
}

/** Starts sshd accepting `authorizedKeys`; resolves once it accepts connections. */
export async function startSshd(authorizedKeys: readonly string[], deadlineMs = 20_000): Promise<Sshd> {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: apt-get install -y openssh-server`);
  const temp = await makeTempDir('confbus-sshd-');
  const hostKey = await generateSshKeyPair(temp.path, { name: 'host_ed25519' });
  await writeFile(join(temp.path, 'authorized_keys'), `${authorizedKeys.join('\n')}\n`, { mode: 0o600 });
  // sshd insists on its privilege-separation directory even for a test instance (it is root here).
  if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await reserveFreePort();
  const config = join(temp.path, 'sshd_config');
  await writeFile(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey.privateKeyPath}`,
      `PidFile ${join(temp.path, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(temp.path, 'authorized_keys')}`,
      'AuthenticationMethods publickey',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'PrintMotd no',
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await temp.remove();
  };
  const deadline = Date.now() + deadlineMs;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`sshd did not start on port ${port}: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const [hostKeyAlgorithm = '', hostKeyBase64 = ''] = hostKey.publicKey.split(' ');
  return {
    port,
    user: userInfo().username,
    hostKeyAlgorithm,
    hostKey: hostKeyBase64,
    knownHostsLine: `[127.0.0.1]:${port} ${hostKey.publicKey}`,
    url: (repositoryPath) => `ssh://${userInfo().username}@127.0.0.1:${port}${repositoryPath}`,
    log: () => log,
    stop,
  };
}
