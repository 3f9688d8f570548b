// Baseline for the cached-mode benchmark: a bare node:http server, in its own process, answering every
// request with the same bytes (and content-type / x-config-version headers) that confbus returned.
// It is the ceiling for "serve a response from memory" on this machine.
//
// Usage: node static-http-server.mjs <response.json>   where response.json = { headers, bodyBase64 }
// Prints `LISTENING http://127.0.0.1:<port>` when ready; exits on SIGTERM.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const body = Buffer.from(spec.bodyBase64, 'base64');
const headers = { ...spec.headers, 'content-length': String(body.length) };

const server = createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`LISTENING http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
