// The parent's side of bench/lib/bus-fleet-worker.mjs: a worker process hosting a share of a client fleet,
// driven by request/answer messages over IPC (protocol at the top of the worker).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.mjs';

const WORKER = fileURLToPath(new URL('./bus-fleet-worker.mjs', import.meta.url));

/** A worker process with request/answer messaging over IPC. */
export async function startFleetWorker(index, nodeArgs = []) {
  const child = fork(WORKER, [], {
    execArgv: nodeArgs,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const pending = new Map();
  let seq = 0;
  child.on('message', (msg) => {
    const p = pending.get(msg.seq);
    if (!p) return;
    pending.delete(msg.seq);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(new Error(`fleet worker ${index}: ${msg.error}`));
  });
  child.on('error', () => undefined); // reported through the pending request or the exit
  child.on('exit', (code, signal) => {
    for (const p of pending.values()) {
      p.reject(new Error(`fleet worker ${index} exited (code ${code}, signal ${signal})`));
    }
    pending.clear();
  });
  await once(child, 'spawn');
  const request = (msg) =>
    new Promise((resolve, reject) => {
      if (!child.connected) {
        reject(new Error(`fleet worker ${index} is gone (no IPC channel)`));
        return;
      }
      seq++;
      const id = seq;
      pending.set(id, { resolve, reject });
      // A send racing the worker's exit fails here instead of as an unhandled 'error' event.
      child.send({ ...msg, seq: id }, (error) => {
        if (!error || !pending.has(id)) return;
        pending.delete(id);
        reject(new Error(`fleet worker ${index}: ${error.message}`));
      });
    });
  const stop = onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    if (child.connected) await request({ type: 'close' }).catch(() => undefined);
    else child.kill('SIGTERM');
    await exited;
    clearTimeout(timer);
  });
  return { request, stop, pid: child.pid };
}
