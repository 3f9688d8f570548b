/**
 * Shutdown in bounded time: a step that hangs (a webhook request waiting on a silent broker, a channel close
 * the broker never answers) must not hold a SIGTERM past what orchestrators wait (Kubernetes: 30 s).
 */
export const SHUTDOWN_BUDGET_MS = 4000;
/** Of which requests in flight get this much; the rest is for the bus, git and worker threads. */
export const REQUEST_GRACE_MS = 1500;

/** Whether `step` settled (either way) before `deadline` (a performance.now() instant). */
export async function settlesBefore(step: Promise<unknown> | undefined, deadline: number): Promise<boolean> {
  if (step === undefined) return true;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([
      step.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
