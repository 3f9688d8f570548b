// A pass-through HTTP proxy in front of a server that tells the bench when each request arrived (with its
// body), so a benchmark can time an event only the client and the server see, e.g. a health report. It can be
// pointed at another server, so one fleet of processes serves several set-ups.
import { Buffer } from 'node:buffer';
import { once } from 'node:events';
import { Agent, createServer, request } from 'node:http';
import { onCleanup } from './cleanup.mjs';

/**
 * Listens on 127.0.0.1:0 and forwards every request to `target` (streamed answers included);
 * `onRequest({ method, url, headers, body, at })` is called once a request's body has arrived (`at`: epoch ms).
 */
export async function startRecordingProxy(target, onRequest) {
  let upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      onRequest({ method: req.method, url: req.url, headers: req.headers, body, at: Date.now() });
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      // A client that went away (a watch stream closed) ends the upstream request too.
      res.on('close', () => {
        if (!res.writableFinished) out.destroy();
      });
      out.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const stop = onCleanup(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    agent.destroy();
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** Sends the next requests to another server (its clients keep their URL). */
    retarget: (next) => {
      upstream = new URL(next);
    },
    stop,
  };
}
