/**
 * Counts git sessions at the transport: a TCP proxy in front of a `git daemon` reads what each client sends and
 * tells a session that only listed the refs from one that asked for objects (`want <id>`, the same in protocol
 * v0, v1 and v2). Counted from outside, so it measures any server alike, whatever git it uses: confbus reads
 * refs over git:// itself and spawns `git fetch`, Spring's JGit speaks the protocol in Java.
 */
import { type TcpProxy, startTcpProxy } from './tcp-proxy.js';

export interface GitSessionCounts {
  /** Connections that asked for `git-upload-pack` (a ref listing or a fetch). */
  readonly sessions: number;
  /** Of those, the ones that asked for objects: fetches that downloaded a pack. */
  readonly packRequests: number;
}

export interface GitSessionCounter {
  readonly port: number;
  /** git:// URL of `repoName` through the counter. */
  url(repoName: string): string;
  counts(): GitSessionCounts;
  stop(): Promise<void>;
}

/** Bytes of a connection's request kept for classifying it: the service line and the first wants fit. */
const KEEP_BYTES = 64 * 1024;
const UPLOAD_PACK = /git-upload-pack /;
const WANT = /want [0-9a-f]{40}/;

export async function startGitSessionCounter(daemonPort: number): Promise<GitSessionCounter> {
  const seen = new Map<number, { text: string; session: boolean; pack: boolean }>();
  let sessions = 0;
  let packRequests = 0;
  const proxy: TcpProxy = await startTcpProxy(daemonPort, {
    onClientBytes(connection, chunk) {
      const state = seen.get(connection) ?? { text: '', session: false, pack: false };
      seen.set(connection, state);
      if (state.pack) return;
      // latin1 keeps one character per byte, so a line split across chunks still matches once joined.
      state.text = (state.text + chunk.toString('latin1')).slice(-KEEP_BYTES);
      if (!state.session && UPLOAD_PACK.test(state.text)) {
        state.session = true;
        sessions++;
      }
      if (state.session && WANT.test(state.text)) {
        state.pack = true;
        state.text = '';
        packRequests++;
      }
    },
  });
  return {
    port: proxy.port,
    url: (repoName) => `git://127.0.0.1:${proxy.port}/${repoName}`,
    counts: () => ({ sessions, packRequests }),
    stop: () => proxy.stop(),
  };
}
