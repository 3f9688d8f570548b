/** Runs the sample service: `node examples/sample-client/dist/main.js --server.port=0 ...`. */
import { startSampleClient } from './sample-client.js';

try {
  // A busshutdown stops the process as SIGTERM does: close gracefully, then exit.
  const app = await startSampleClient({
    args: process.argv.slice(2),
    env: process.env,
    onShutdownRequest: () => stop(),
  });
  function stop(): void {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  }
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  process.stderr.write(
    `sample-client failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
