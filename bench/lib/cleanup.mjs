// One place that knows what the benchmark run created (child processes, temp dirs), so a crash or
// Ctrl-C still removes all of it. Cleanups run newest first: servers stop before their repos go.
const cleanups = [];

/** Registers `fn` to run at the end of the run; returns a function that runs it early (once). */
export function onCleanup(fn) {
  let done = false;
  const once = async () => {
    if (done) return;
    done = true;
    const i = cleanups.indexOf(once);
    if (i >= 0) cleanups.splice(i, 1);
    await fn();
  };
  cleanups.push(once);
  return once;
}

/** Runs every pending cleanup; errors are reported, not thrown, so one failure doesn't leak the rest. */
export async function runCleanups() {
  while (cleanups.length > 0) {
    const fn = cleanups[cleanups.length - 1];
    try {
      await fn();
    } catch (err) {
      // `fn` already removed itself from the list, so the loop moves on.
      console.error(`cleanup failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

let installed = false;
/** Cleans up on SIGINT/SIGTERM, then exits with the conventional 128+signal status. */
export function cleanupOnSignals() {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      runCleanups().finally(() => process.exit(code));
    });
  }
}
