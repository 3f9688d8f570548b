/**
 * `--exec CMD`, run after each render that changed the file: through `/bin/sh -c` (so `nginx -s reload` or
 * `kill -HUP $(cat app.pid)` work as written), with confbus's environment and standard streams. Its exit code
 * is logged; a failure does not stop the renderer (the next change runs it again).
 */
import { spawn } from 'node:child_process';

export interface ExecResult {
  readonly ok: boolean;
  /** `exit code 1`, `signal SIGKILL`, or why it could not start. */
  readonly description: string;
}

export function runExecHook(command: string): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: 'inherit' });
    child.once('error', (error) => resolve({ ok: false, description: `could not start: ${error.message}` }));
    child.once('exit', (code, signal) =>
      resolve({
        ok: code === 0,
        description: signal === null ? `exit code ${code ?? 'unknown'}` : `signal ${signal}`,
      }),
    );
  });
}
