// The refs of a git:// upstream, read over one TCP connection from Node instead of spawning `git ls-remote`
// (which costs a fork and exec of git on top of the daemon's own upload-pack): git's protocol v0 — send the
// upload-pack request, read the ref advertisement up to its flush packet, answer "no wants" with a flush, close.
// https://git-scm.com/docs/pack-protocol (git transport; pkt-line format).
import { connect, type Socket } from 'node:net';
import { GitCommandError } from './errors.js';
import { pktLine, readAdvertisement } from './ref-advertisement.js';
import { IdleDeadline } from './upstream-deadline.js';

/** A git:// uri split for the request line; undefined when this client does not handle it (git will). */
export interface DaemonAddress {
  host: string;
  port: number;
  /** As the request names it: the uri's `host[:port]`. */
  hostHeader: string;
  path: string;
}

export function daemonAddress(uri: string): DaemonAddress | undefined {
  const match = /^git:\/\/([^/@?#%\s]+)(\/[^?#%\s\\]*)$/i.exec(uri);
  if (!match) return undefined;
  const [, authority = '', path = ''] = match;
  const hostPort = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(authority);
  if (!hostPort) return undefined;
  const [, host = '', port] = hostPort;
  return {
    host: host.replace(/^\[|\]$/g, ''),
    port: port ? Number(port) : 9418,
    hostHeader: authority,
    path,
  };
}

export interface DaemonRefsOptions {
  /** For messages: the uri without credentials. */
  safeUri: string;
  /** No byte from the daemon for this long: the connection is dropped, naming `idleTimeoutHint`. */
  idleTimeoutMs: number;
  idleTimeoutHint: string;
  /** Aborted when the mirror closes. */
  signal: AbortSignal;
}

/** Full ref name -> object id for the daemon's branches and tags (peeled entries left out, as `--refs` does). */
export function readDaemonRefs(
  address: DaemonAddress,
  options: DaemonRefsOptions,
): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const what = `git ls-remote ${options.safeUri}`;
    const socket: Socket = connect({ host: address.host, port: address.port });
    socket.setNoDelay(true);
    const refs = new Map<string, string>();
    let buffer: Buffer = Buffer.alloc(0);
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      deadline.stop();
      options.signal.removeEventListener('abort', aborted);
      if (error) {
        socket.destroy();
        reject(error);
      } else {
        // "No wants": upload-pack ends without sending anything more.
        socket.end('0000');
        resolve(refs);
      }
    };
    const deadline = new IdleDeadline(options, (reason) =>
      finish(new GitCommandError(`${what} ${reason}`, null, true)),
    );
    const aborted = () => finish(new Error('GitMirror is closed'));
    if (options.signal.aborted) return aborted();
    options.signal.addEventListener('abort', aborted);
    socket.on('connect', () => {
      socket.write(pktLine(`git-upload-pack ${address.path}\0host=${address.hostHeader}\0`));
    });
    socket.on('data', (chunk: Buffer) => {
      deadline.activity();
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      try {
        const consumed = readAdvertisement(buffer, refs);
        if (consumed === 'done') finish();
        else buffer = buffer.subarray(consumed);
      } catch (error) {
        finish(new GitCommandError(`${what} failed: ${(error as Error).message}`, null, false));
      }
    });
    socket.on('error', (error) =>
      finish(new GitCommandError(`${what} failed: ${error.message}`, null, false)),
    );
    socket.on('close', () =>
      finish(new GitCommandError(`${what} failed: the daemon closed the connection`, null, false)),
    );
  });
}
