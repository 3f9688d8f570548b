// One long-lived `git cat-file --batch` per mirror: requests are written as lines and answered in order,
// so any number of concurrent reads are pipelined through a single process (~20x cheaper than a spawn
// per file, see ecosystem-notes "Git details"). Framing follows git's documented output:
//   "<oid> <type> <size>\n<size bytes>\n"  |  "<name> missing\n"  |  "<name> ambiguous\n"
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { GitCommandError } from './errors.js';
import { gitEnv } from './git-process.js';

export interface BatchObject {
  oid: string;
  type: string;
  content: Buffer;
}

interface Pending {
  resolve: (o: BatchObject | undefined) => void;
  reject: (e: Error) => void;
}

export class CatFileBatch {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly queue: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private closed = false;

  constructor(private readonly gitDir: string) {}

  /**
   * Looks up an object by any name git's `get_oid` understands (`<commit>:<path>`, `<oid>^{commit}`).
   * Resolves undefined when the object is missing or the name is ambiguous. The caller guarantees
   * `name` has no newline (it would split the request).
   */
  read(name: string): Promise<BatchObject | undefined> {
    if (this.closed) return Promise.reject(new Error('cat-file reader is closed'));
    if (name.includes('\n')) return Promise.reject(new Error('object name must not contain a newline'));
    const child = this.ensureChild();
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
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
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd: this.gitDir,
      env: gitEnv({}, this.gitDir),
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.buffer = Buffer.alloc(0);
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
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

  private drain(): void {
    for (;;) {
      const pending = this.queue[0];
      if (!pending) return;
      const eol = this.buffer.indexOf(0x0a);
      if (eol < 0) return;
      const header = this.buffer.subarray(0, eol).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(eol + 1);
        this.queue.shift();
        pending.resolve(undefined);
        continue;
      }
      const [oid = '', type = '', sizeText = ''] = header.split(' ');
      const size = Number(sizeText);
      if (!Number.isSafeInteger(size) || size < 0) {
        this.queue.shift();
        pending.reject(
          new GitCommandError(`unexpected git cat-file output: ${header.slice(0, 200)}`, null, false),
        );
        this.child?.kill('SIGKILL');
        return;
      }
      // Header, content, and the trailing newline must all be buffered before answering.
      if (this.buffer.length < eol + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(eol + 1, eol + 1 + size));
      this.buffer = this.buffer.subarray(eol + 1 + size + 1);
      this.queue.shift();
      pending.resolve({ oid, type, content });
    }
  }
}
