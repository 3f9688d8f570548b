/**
 * How a caller runs long synchronous work a step at a time: core's long walks (decrypting an environment, the
 * import tree of many documents) hand each step to it, so that a server can take turns with its event loop (the
 * server's time slices) while core stays free of timers of its own. A runner may run the step at once or later;
 * it runs the step whole, and the step is short.
 */
export type StepRunner = <T>(work: () => T) => Promise<T>;

/** Every step at once: for callers with no event loop to share. */
export const runAtOnce: StepRunner = async (work) => work();
