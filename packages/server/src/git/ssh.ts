// SSH as Spring Cloud Config configures it (spring.cloud.config.server.git.private-key, host-key, …), for the
// OpenSSH client git runs. Spring's semantics (JGitEnvironmentProperties, PropertyBasedSshSessionFactory):
// - ignore-local-ssh-settings=false (default): the machine's ssh setup (~/.ssh) is used; only
//   strict-host-key-checking (and here known-hosts-file) apply; private-key and host-key are ignored.
// - ignore-local-ssh-settings=true: ~/.ssh is ignored; private-key (required) is the only identity and the
//   host is checked against host-key and known-hosts-file.
// The key reaches ssh through a 0600 file in a 0700 temp directory that exists only while one git command
// runs. A passphrase-protected PEM key is decrypted in-process with Node's crypto (OpenSSL), not through
// ssh-agent: no agent process to run and stop, the passphrase never leaves this process (no askpass program,
// environment or argv), and the clear key is on disk only for the duration of a command, readable by our
// user alone. An encrypted key in OpenSSH's own format (bcrypt KDF) is not something OpenSSL reads: the start
// stops and says how to convert it.
import { createPrivateKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';

const GIT = 'spring.cloud.config.server.git';
const HOST_KEY_ALGORITHMS = [
  'ssh-dss',
  'ssh-rsa',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
];

export interface SshSettings {
  privateKey?: string;
  passphrase?: string;
  hostKey?: string;
  hostKeyAlgorithm?: string;
  knownHostsFile?: string;
  strictHostKeyChecking: boolean;
  ignoreLocalSshSettings: boolean;
  preferredAuthentications?: string;
}

/** Whether the settings change anything for ssh: with Spring's defaults the machine's setup is used as is. */
export function needsSshCommand(s: SshSettings): boolean {
  return (
    s.ignoreLocalSshSettings ||
    !s.strictHostKeyChecking ||
    s.knownHostsFile !== undefined ||
    s.preferredAuthentications !== undefined ||
    s.privateKey !== undefined ||
    s.hostKey !== undefined
  );
}

/** ssh://, git+ssh://, ssh+git:// or scp-like `[user@]host:path` (as Spring's isSshUri, minus other schemes). */
export function isSshUri(uri: string): boolean {
  if (/^(ssh|git\+ssh|ssh\+git):\/\//i.test(uri)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) return false;
  return /^([^@/:]+@)?[^/:]+:/.test(uri) && !/^[a-z]:[\\/]/i.test(uri);
}

/** Builds the ssh command for one git invocation, with its temp files. */
export class SshCommand {
  /** The identity as ssh reads it (decrypted when it had a passphrase); only in property-based mode. */
  private readonly identity: string | undefined;
  /** Problems worth a warning at start (settings Spring would ignore, host keys not checked). */
  readonly warnings: string[] = [];

  constructor(
    private readonly settings: SshSettings,
    private readonly timeoutSeconds: number,
  ) {
    validate(settings);
    this.identity = settings.ignoreLocalSshSettings ? readableKey(settings) : undefined;
    if (!settings.ignoreLocalSshSettings && (settings.privateKey ?? settings.hostKey) !== undefined)
      this.warnings.push(
        `${GIT}.private-key and host-key are used only with ${GIT}.ignore-local-ssh-settings=true (as in Spring); the machine's ssh setup is used`,
      );
    if (settings.ignoreLocalSshSettings && settings.strictHostKeyChecking && !this.hostKeysGiven())
      this.warnings.push(
        `No ${GIT}.host-key or known-hosts-file: the server's host key is not checked (as in Spring); set one of them`,
      );
  }

  /** Runs `task` with GIT_SSH_COMMAND set; the temp directory (key, known hosts) is gone when it settles. */
  async run<T>(task: (env: Record<string, string>) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'confbus-ssh-')); // mode 0700
    try {
      const options = await this.options(dir);
      // In local mode an operator's own GIT_SSH_COMMAND stays the base (our options are appended to it).
      const base = this.settings.ignoreLocalSshSettings ? 'ssh' : (process.env.GIT_SSH_COMMAND ?? 'ssh');
      return await task({ GIT_SSH_COMMAND: [base, ...options].join(' ') });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private hostKeysGiven(): boolean {
    return this.settings.hostKey !== undefined || this.settings.knownHostsFile !== undefined;
  }

  /** ssh options (shell-quoted: git runs GIT_SSH_COMMAND through the shell). */
  private async options(dir: string): Promise<string[]> {
    const s = this.settings;
    const options = ['-o BatchMode=yes', `-o ConnectTimeout=${Math.max(1, Math.round(this.timeoutSeconds))}`];
    if (s.preferredAuthentications !== undefined)
      options.push(`-o PreferredAuthentications=${quote(s.preferredAuthentications)}`);
    if (s.ignoreLocalSshSettings) {
      const key = join(dir, 'identity');
      await writeFile(key, this.identity ?? '', { mode: 0o600 });
      options.push('-F /dev/null', '-o IdentityAgent=none', '-o IdentitiesOnly=yes', `-i ${quote(key)}`);
    }
    const checkHost = s.strictHostKeyChecking && (!s.ignoreLocalSshSettings || this.hostKeysGiven());
    if (!checkHost) {
      options.push('-o StrictHostKeyChecking=no', '-o UserKnownHostsFile=/dev/null', '-o LogLevel=ERROR');
      return options;
    }
    options.push('-o StrictHostKeyChecking=yes');
    if (s.ignoreLocalSshSettings || s.knownHostsFile !== undefined) {
      const knownHosts = join(dir, 'known_hosts');
      await writeFile(knownHosts, await this.knownHosts(), { mode: 0o600 });
      options.push(`-o UserKnownHostsFile=${quote(knownHosts)}`);
      if (s.ignoreLocalSshSettings) options.push('-o GlobalKnownHostsFile=/dev/null');
    }
    return options;
  }

  /** known-hosts-file's lines plus host-key, which applies to the configured host whatever its name or port. */
  private async knownHosts(): Promise<string> {
    const s = this.settings;
    const lines: string[] = [];
    if (s.knownHostsFile !== undefined) lines.push((await readFile(s.knownHostsFile, 'utf8')).trimEnd());
    if (s.hostKey !== undefined && s.hostKeyAlgorithm !== undefined)
      lines.push(`* ${s.hostKeyAlgorithm} ${s.hostKey.trim()}`);
    return `${lines.join('\n')}\n`;
  }
}

/** Spring's validators (PrivateKeyValidator, HostKeyAlgoSupportedValidator, …), at start. */
function validate(s: SshSettings): void {
  if ((s.hostKey === undefined) !== (s.hostKeyAlgorithm === undefined))
    throw invalid(`${GIT}.host-key and ${GIT}.host-key-algorithm must be set together`);
  if (s.hostKeyAlgorithm !== undefined && !HOST_KEY_ALGORITHMS.includes(s.hostKeyAlgorithm))
    throw invalid(`${GIT}.host-key-algorithm must be one of ${HOST_KEY_ALGORITHMS.join(', ')}`);
  if (s.knownHostsFile !== undefined && !existsSync(s.knownHostsFile))
    throw invalid(`File '${s.knownHostsFile}' named by ${GIT}.known-hosts-file could not be found`);
  if (s.preferredAuthentications !== undefined && !/^([\w -]+,)*[\w -]+$/.test(s.preferredAuthentications))
    throw invalid(`${GIT}.preferred-authentications must be a comma list of method names`);
  if (s.ignoreLocalSshSettings && s.privateKey === undefined)
    throw invalid(`${GIT}.private-key must be set when ${GIT}.ignore-local-ssh-settings is true`);
}

/** The key as ssh can read it without a passphrase. Never puts the key or passphrase in a message. */
function readableKey(s: SshSettings): string {
  const pem = `${(s.privateKey ?? '').trim()}\n`;
  const encrypted = /ENCRYPTED/.test(pem.split('\n', 3).join('\n'));
  if (pem.startsWith('-----BEGIN OPENSSH PRIVATE KEY-----')) {
    if (openSshCipher(pem) !== 'none')
      throw invalid(
        `${GIT}.private-key is an encrypted key in OpenSSH format, which confbus cannot decrypt; convert it to PEM ` +
          '(ssh-keygen -p -m PEM -f <file>) or remove its passphrase',
      );
    return pem;
  }
  try {
    const key = createPrivateKey(
      encrypted || (s.passphrase !== undefined && s.passphrase !== '')
        ? { key: pem, format: 'pem', passphrase: s.passphrase ?? '' }
        : { key: pem, format: 'pem' },
    );
    return key.export({ type: 'pkcs8', format: 'pem' }).toString();
  } catch {
    throw invalid(
      encrypted
        ? `${GIT}.private-key could not be decrypted with ${GIT}.passphrase`
        : `${GIT}.private-key is not a valid private key (PEM, or OpenSSH format without a passphrase)`,
    );
  }
}

/** The cipher named in an OpenSSH-format key ("none" when it has no passphrase): "openssh-key-v1\0", then a string. */
function openSshCipher(pem: string): string {
  const body = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const magic = 'openssh-key-v1\0';
  if (body.length < magic.length + 4 || body.subarray(0, magic.length).toString('latin1') !== magic)
    return '?';
  const length = body.readUInt32BE(magic.length);
  return body.subarray(magic.length + 4, magic.length + 4 + length).toString('latin1');
}

function invalid(message: string): ConfbusError {
  return new ConfbusError(serverErrors.CONFBUS_GIT_SSH_SETTINGS, message);
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
