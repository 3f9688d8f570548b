/**
 * The message of anything thrown, for a log line or a wrapping error: an Error's own message (without its name,
 * as the messages confbus writes read), anything else as String() prints it (a rejected string, a number).
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
