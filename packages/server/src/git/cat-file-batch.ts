// One long-lived `git cat-file --batch` per mirror: requests are written as lines and answered in order,
// so any number of concurrent reads are pipelined through a single process (~20x cheaper than a spawn
// per file, see ecosystem-notes "Git details"). Framing follows git's documented output:
//   "<oid> <type> <size>\n<size bytes>\n"  |  "<name> missing\n"  |  "<name> ambiguous\n"
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { GitCommandError } from './errors.js';
import { gitEnv, inRepository } from './git-process.js';

export interface BatchObject {
  oid: string;
  type: string;
  /** Bytes, as git announced them. */
  size: number;
  /** Undefined when `size` was over the read's `maxBytes`: git's output was skipped, never held. */
  content: Buffer | undefined;
}

interface Pending {
  maxBytes: number;
  resolve: (o: BatchObject | undefined) => void;
  reject: (e: Error) => void;
}

/** The object being received: its header is read, its content (size + 1 bytes with the newline) is arriving. */
interface Receiving {
  oid: string;
  type: string;
  size: number;
  /** Over the read's maxBytes: the bytes are dropped as they arrive. */
  skip: boolean;
  /** Content bytes (and the trailing newline) still to drop when skipping. */
  toDrop: number;
}

export class CatFileBatch {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly queue: Pending[] = [];
  /**
   * What git wrote and no answer took yet, as it arrived: joined once per object (a 9 MB blob arrives in ~140
   * pipe chunks, and concatenating on each copied ~600 MB, stalling the event loop for hundreds of ms).
   */
  private chunks: Buffer[] = [];
  private buffered = 0;
  private receiving: Receiving | undefined;
  private closed = false;

  constructor(
    private readonly gitDir: string,
    /** Variables on top of git's whitelist, as MirrorGit's. */
    private readonly env: Record<string, string> = {},
  ) {}

  /**
   * Looks up an object by any name git's `get_oid` understands (`<commit>:<path>`, `<oid>^{commit}`).
   * Resolves undefined when the object is missing or the name is ambiguous. An object larger than `maxBytes`
   * (by the size git announces before the content) comes without its content, which is never held. The caller
   * guarantees `name` has no newline (it would split the request).
   */
  read(name: string, maxBytes = Number.POSITIVE_INFINITY): Promise<BatchObject | undefined> {
    if (this.closed) return Promise.reject(new Error('cat-file reader is closed'));
    if (name.includes('\n')) return Promise.reject(new Error('object name must not contain a newline'));
    const child = this.ensureChild();
    return new Promise((resolve, reject) => {
      this.queue.push({ maxBytes, resolve, reject });
      child.stdin.write(`${name}\n`);
    });
  }

  close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (!child) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('close', () => resolve());
      child.stdin.end();
      // cat-file exits on stdin EOF; the kill is only a backstop if it is stuck.
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      timer.unref();
    });
  }

  private ensureChild(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn('git', inRepository(this.gitDir, ['cat-file', '--batch']), {
      env: gitEnv(this.env, this.gitDir),
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.chunks = [];
    this.buffered = 0;
    this.receiving = undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      this.drain();
    });
    child.stderr.resume();
    // Writes after the process died surface as EPIPE; the 'close' handler below rejects the requests.
    child.stdin.on('error', () => {});
    const fail = (message: string) => {
      if (this.child !== child) return;
      this.child = undefined;
      const error = new GitCommandError(message, child.exitCode, false);
      for (const pending of this.queue.splice(0)) pending.reject(error);
    };
    child.on('error', (e) => fail(`git cat-file could not be started: ${e.message}`));
    child.on('close', (code, signal) => fail(`git cat-file exited (code ${code}, signal ${signal})`));
    return child;
  }

  /** Answers every request whose answer has arrived, in order. */
  private drain(): void {
    for (;;) {
      const pending = this.queue[0];
      if (!pending) return;
      if (this.receiving === undefined && !this.readHeader(pending)) return;
      const object = this.receiving;
      if (object === undefined) continue; // missing or ambiguous: answered
      if (object.skip) {
        const dropped = Math.min(object.toDrop, this.buffered);
        this.drop(dropped);
        object.toDrop -= dropped;
        if (object.toDrop > 0) return;
        this.finish({ oid: object.oid, type: object.type, size: object.size, content: undefined });
        continue;
      }
      // Content and the trailing newline must both have arrived before answering.
      if (this.buffered < object.size + 1) return;
      const content = this.take(object.size);
      this.drop(1);
      this.finish({ oid: object.oid, type: object.type, size: object.size, content });
    }
  }

  /**
   * Reads the next header, "<oid> <type> <size>" | "<name> missing" | "<name> ambiguous", once it has arrived;
   * false when it has not.
   */
  private readHeader(pending: Pending): boolean {
    const eol = this.newlineAt();
    if (eol < 0) return false;
    const header = this.take(eol).toString('utf8');
    this.drop(1);
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      this.queue.shift();
      pending.resolve(undefined);
      return true;
    }
    const [oid = '', type = '', sizeText = ''] = header.split(' ');
    const size = Number(sizeText);
    if (!Number.isSafeInteger(size) || size < 0) {
      this.queue.shift();
      pending.reject(
        new GitCommandError(`unexpected git cat-file output: ${header.slice(0, 200)}`, null, false),
      );
      this.child?.kill('SIGKILL');
      return false;
    }
    const skip = size > pending.maxBytes;
    this.receiving = { oid, type, size, skip, toDrop: size + 1 };
    return true;
  }

  private finish(object: BatchObject): void {
    this.receiving = undefined;
    this.queue.shift()?.resolve(object);
  }

  /** Offset of the first newline in what is buffered, or -1. */
  private newlineAt(): number {
    let offset = 0;
    for (const chunk of this.chunks) {
      const at = chunk.indexOf(0x0a);
      if (at >= 0) return offset + at;
      offset += chunk.length;
    }
    return -1;
  }

  /** The next `n` buffered bytes, copied once (a piece of a pipe chunk must not keep the whole chunk alive). */
  private take(n: number): Buffer {
    const parts: Buffer[] = [];
    let left = n;
    while (left > 0) {
      const chunk = this.chunks[0] as Buffer;
      if (chunk.length <= left) {
        parts.push(chunk);
        this.chunks.shift();
        left -= chunk.length;
      } else {
        parts.push(chunk.subarray(0, left));
        this.chunks[0] = chunk.subarray(left);
        left = 0;
      }
    }
    this.buffered -= n;
    return Buffer.concat(parts, n);
  }

  /** Drops the next `n` buffered bytes. */
  private drop(n: number): void {
    let left = n;
    while (left > 0) {
      const chunk = this.chunks[0] as Buffer;
      if (chunk.length <= left) {
        this.chunks.shift();
        left -= chunk.length;
      } else {
        this.chunks[0] = chunk.subarray(left);
        left = 0;
      }
    }
    this.buffered -= n;
  }
}
