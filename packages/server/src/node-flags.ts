/**
 * The flags Node must start with for the server to keep its serving cost after bursts of work (docs/operations.md,
 * "Node flags"). They are V8 flags, which Node reads only at start (V8 freezes them; NODE_OPTIONS refuses them),
 * so `npm start` and the deploy recipes (Dockerfile, systemd) pass them, tests hold those to this list, and the
 * server warns at start without them. Not in the launcher's shebang: `env -S` is missing from busybox (Alpine)
 * and npm's Windows shims, and a re-exec would put a second process between the supervisor and the server.
 *
 * --no-allocation-site-pretenuring: a contract verdict builds and keeps thousands of objects at once; V8 learns
 * from that burst to allocate at the same sites in the old generation, node:http's per-request objects among
 * them, and from then on every scavenge costs about ten times as much (5.8 ms against 0.6 ms for as many
 * scavenges in bench/contracts-gate-bench.mjs; with the flag, alike).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

/** The flags of SERVER_NODE_FLAGS this process was started without (`node --flag … confbus.js server`). */
export function missingServerNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
