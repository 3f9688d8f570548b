/**
 * The processes `confbus run` and `confbus render` are tested with: a Python child that prints the variables it
 * was started with and what signals it gets, an nginx-like shell consumer that re-reads its file on SIGHUP, and
 * a reader for confbus's JSON log lines (standard error).
 */
import type { NodeProcess } from '@confbus/testkit/child-process';

/**
 * Prints `serving NAME=value ...` once started; `HUP received` on SIGHUP; with TRAP_TERM set, `TERM received` on
 * SIGTERM and exits EXIT_ON_TERM (default 0); otherwise SIGTERM kills it as it kills any process.
 */
export const PYTHON_CHILD = `
import os, signal, sys
names = ["GREETING", "GROUP_COMMENT", "FEATURES_0", "FEATURES_1", "SERVER_PORT", "APP_GROUP_COMMENT",
         "APP_SERVER_PORT", "CONFIG_CLIENT_VERSION", "DB_PASSWORD"]
def on_hup(signum, frame):
    print("HUP received", flush=True)
def on_term(signum, frame):
    print("TERM received", flush=True)
    sys.exit(int(os.environ.get("EXIT_ON_TERM", "0")))
signal.signal(signal.SIGHUP, on_hup)
if os.environ.get("TRAP_TERM"):
    signal.signal(signal.SIGTERM, on_term)
# Printed once the handlers are in place: a test signals the child as soon as it reads this line.
print("serving " + " ".join(f"{name}={os.environ.get(name)}" for name in names), flush=True)
while True:
    signal.pause()
`;

/**
 * An nginx-like consumer: writes its pid to $PIDFILE, prints `loaded: <the file>` at start and on each SIGHUP
 * (nginx re-reads nginx.conf on SIGHUP), and otherwise waits.
 */
export const SHELL_CONSUMER = `#!/bin/sh
load() { echo "loaded: $(tr '\\n' ' ' < "$CONF")"; }
trap load HUP
trap 'exit 0' TERM
echo $$ > "$PIDFILE"
load
while :; do sleep 1 & wait $!; done
`;

/** The `msg` of each JSON log line the process wrote. */
export function logMessages(proc: NodeProcess): string[] {
  return proc.lines.flatMap((line) => {
    try {
      const msg = (JSON.parse(line) as { msg?: unknown }).msg;
      return typeof msg === 'string' ? [msg] : [];
    } catch {
      return [];
    }
  });
}
