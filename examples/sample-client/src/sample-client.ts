/**
 * The sample service: the smallest complete example of writing a service with @confbus/client.
 * `/static` serves a component built once at start-up; `/dynamic` serves a refreshable one, so
 * after `POST /actuator/refresh` only `/dynamic` shows the new `group.*` values. The bus
 * (`--spring.cloud.bus.enabled=true`, `spring.rabbitmq.*`) is switched on by settings alone.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigClient, createManagementHandler, type ConfigView } from '@confbus/client';

export interface SampleClientOptions {
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Called when a `busshutdown` addresses this instance: the host should stop it (close, then exit). */
  readonly onShutdownRequest?: () => void;
}

export interface SampleClient {
  readonly port: number;
  close(): Promise<void>;
}

interface Group {
  readonly profile: string | null;
  readonly comment: string | null;
}

function readGroup(config: ConfigView): Group {
  return {
    profile: config.getString('group.profile') ?? null,
    comment: config.getString('group.comment') ?? null,
  };
}

/**
 * `sample.fault.when=<key>=<value>`: while the configuration's `<key>` has that value, the sample is faulty —
 * `sample.fault.mode=down` (default) makes `/actuator/health` DOWN, `errors` makes `/dynamic` answer 500 and count
 * an error. For staged-rollout tests and demos: push the value, watch the rollout roll itself back.
 */
function injectedFault(config: ConfigView): () => { mode: 'down' | 'errors'; reason: string } | undefined {
  return () => {
    const when = config.getString('sample.fault.when');
    const equals = when?.indexOf('=') ?? -1;
    if (when === undefined || equals <= 0) return undefined;
    const key = when.slice(0, equals);
    const value = when.slice(equals + 1);
    if (config.getString(key) !== value) return undefined;
    const mode = config.getString('sample.fault.mode') === 'errors' ? 'errors' : 'down';
    return { mode, reason: `${key} is ${value}` };
  };
}

export async function startSampleClient(options: SampleClientOptions = {}): Promise<SampleClient> {
  const config = await ConfigClient.start({
    args: options.args ?? [],
    env: options.env ?? process.env,
    // The sample shows its refresh endpoints unless told otherwise; the bus ones answer 503 while
    // the bus is disabled.
    defaults: {
      'management.endpoints.web.exposure.include': ['health', 'refresh', 'busrefresh', 'bus-refresh'],
    },
  });
  if (options.onShutdownRequest) config.on('shutdown', options.onShutdownRequest);
  const startupGroup = readGroup(config); // read once: keeps its start-up values, like a plain @Value
  const liveGroup = config.refreshable(readGroup); // rebuilt when a group.* key changes (@RefreshScope)
  const management = createManagementHandler(config);
  const faulty = injectedFault(config);
  // The fault shows where a staged rollout looks (docs/rollouts.md): the health the client reports, and the
  // error counter the application feeds — here from the request handler, as an HTTP framework's error hook would.
  config.registerHealthIndicator('sample', () =>
    faulty()?.mode === 'down' ? { status: 'DOWN', details: { fault: faulty()?.reason } } : 'UP',
  );

  const server = createServer((req, res) => {
    if (management(req, res)) return;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const fault = faulty();
    if (fault?.mode === 'errors' && path === '/dynamic') {
      config.recordError();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 500, error: 'Injected fault', reason: fault.reason }));
      return;
    }
    const group =
      req.method !== 'GET'
        ? undefined
        : path === '/static'
          ? startupGroup
          : path === '/dynamic'
            ? liveGroup.current
            : undefined;
    res.writeHead(group ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(group ?? { status: 404, error: 'Not Found', path }));
  });

  const host = config.getString('server.address', '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.getNumber('server.port', 8080), host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  await config.setLocalServerPort(port); // the bus id carries the port, as Spring's local.server.port
  config.logger.info({}, `Listening on http://${host}:${port}`);

  return {
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await config.close();
    },
  };
}
