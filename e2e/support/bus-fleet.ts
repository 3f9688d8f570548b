/**
 * The bus side of the fleet: settings that put `confbus server` / `confbus sample-client` on a test vhost (or a
 * test Kafka broker), sample
 * clients that log in to RabbitMQ as a given user (credentials through the environment, as in production), and
 * readers for their pino log lines. Processes go through testkit's child-process module, so `stopFleet()` plus
 * `stopAllNodeProcesses()` in `after` stop them.
 */
import type { NodeProcess } from '@confbus/testkit/child-process';
import { RABBIT_HOST, RABBIT_PORT } from '@confbus/testkit/rabbit-vhost';
import { type RunningClient, startClient } from './fleet.js';

export interface RabbitCredentials {
  readonly username: string;
  readonly password: string;
}

/** Switches the bus on and points it at `vhost` on the test broker. */
export function busSettings(vhost: string): Record<string, string | number | boolean> {
  return {
    'spring.cloud.bus.enabled': true,
    'spring.rabbitmq.host': RABBIT_HOST,
    'spring.rabbitmq.port': RABBIT_PORT,
    'spring.rabbitmq.virtual-host': vhost,
  };
}

/** Switches the bus on over Kafka: the broker given by Spring Boot's key, as a Spring app would be told. */
export function kafkaBusSettings(bootstrap: string): Record<string, string | number | boolean> {
  return { 'spring.cloud.bus.enabled': true, 'spring.kafka.bootstrap-servers': bootstrap };
}

/** `confbus sample-client` on the bus, logging in as `credentials`; resolves once it listens. */
export function startBusClient(
  settings: Record<string, string | number | boolean>,
  credentials: RabbitCredentials,
): Promise<RunningClient> {
  return startClient(
    {
      // Quick retries, so "back within a second of being allowed in" holds on a loaded machine too.
      'confbus.bus.reconnect.initial-interval': 200,
      'confbus.bus.reconnect.max-interval': 1000,
      ...settings,
    },
    {
      env: { SPRING_RABBITMQ_USERNAME: credentials.username, SPRING_RABBITMQ_PASSWORD: credentials.password },
    },
  );
}

/** The pino `msg` of each JSON log line a process wrote, from line `from` on. */
export function logMessages(proc: NodeProcess, from = 0): string[] {
  return proc.lines.slice(from).flatMap((line) => {
    try {
      const msg = (JSON.parse(line) as { msg?: unknown }).msg;
      return typeof msg === 'string' ? [msg] : [];
    } catch {
      return [];
    }
  });
}

/** POSTs a minimal push webhook (`{"path": [...]}`) to the server's /monitor. */
export async function postPushWebhook(
  serverBase: string,
  paths: readonly string[],
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${serverBase}/monitor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: paths }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** POST `body` as JSON to `<base><path>` (a bus command such as busenv); resolves with the status. */
export async function postJson(base: string, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}
