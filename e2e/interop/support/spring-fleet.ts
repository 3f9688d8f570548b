/**
 * Shared set-up of the interop suites: whether Java peers can run here (and the "not run" reason the
 * suites print when not), the Spring client's settings for a confbus server and a test vhost, and small
 * HTTP readers for its endpoints.
 */
import type { BusNode } from '@confbus/bus';
import type { AckBusEvent } from '@confbus/core';
import { RABBIT_HOST, RABBIT_PASSWORD, RABBIT_PORT, RABBIT_USER } from '@confbus/testkit/rabbit-vhost';
import { type SpringProcess, springPeersUnavailable } from '@confbus/testkit/spring-peers';
import { waitUntil } from '../../support/fleet.js';

/** A further tool a suite needs beside Java and Maven (e.g. `keytoolAvailable()`). */
export type Availability = { ok: true } | { ok: false; reason: string };

/**
 * `describe(..., { skip })`: false when Java, Maven and `alsoNeeded` are here, else "not run: <reason>". CI
 * sets CONFBUS_REQUIRE_JAVA=1, which turns anything missing into a failure: there, these suites never skip.
 */
export function skipWithoutJava(...alsoNeeded: readonly Availability[]): string | false {
  const reason = springPeersUnavailable() ?? alsoNeeded.flatMap((tool) => (tool.ok ? [] : [tool.reason]))[0];
  if (reason === undefined) return false;
  if (process.env.CONFBUS_REQUIRE_JAVA === '1') throw new Error(`CONFBUS_REQUIRE_JAVA=1 but ${reason}`);
  return `not run: ${reason} (the interop suites need Java 17+ and Maven)`;
}

/** Puts a Spring app's bus (Spring Cloud Stream's Rabbit binder) on `vhost` of the test broker. */
export function springRabbitSettings(vhost: string): Record<string, string | number> {
  return {
    'spring.rabbitmq.host': RABBIT_HOST,
    'spring.rabbitmq.port': RABBIT_PORT,
    'spring.rabbitmq.username': RABBIT_USER,
    'spring.rabbitmq.password': RABBIT_PASSWORD,
    'spring.rabbitmq.virtual-host': vhost,
  };
}

/** Imports config from `serverUrl` (fail-fast off unless `failFast` settings are added). */
export function springConfigImport(serverUrl: string): Record<string, string> {
  return { 'spring.config.import': `configserver:${serverUrl}` };
}

export interface Group {
  readonly profile: string | null;
  readonly comment: string | null;
}

/** GET `<base><path>` as JSON; throws with the status and body when not 200. */
export async function getJsonOk<T>(base: string, path: string): Promise<T> {
  const response = await fetch(`${base}${path}`);
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** POST without a body; resolves with the status. */
export async function post(base: string, path: string): Promise<number> {
  const response = await fetch(`${base}${path}`, { method: 'POST' });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Waits until a Spring app on the Kafka bus acks a refresh addressed to it alone. Spring's binder starts at the
 * end of the topic and says nothing when it is ready, so events sent before are not for it: probes are sent
 * until one is acked (`acks` is filled by the observer's 'ack' listener). Fails with the app's last log lines.
 */
export async function untilSpringAcks(
  observer: BusNode,
  acks: readonly AckBusEvent[],
  spring: { id: string; process: Pick<SpringProcess['process'], 'lines'> },
  what: string,
): Promise<void> {
  await waitUntil(
    what,
    async () => {
      const probe = await observer.publishRefresh(spring.id);
      return waitUntil(
        'an ack of the probe',
        () => acks.some((ack) => ack.ackId === probe.id && ack.originService === spring.id),
        5_000,
      ).then(
        () => true,
        () => false,
      );
    },
    120_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; Spring app log:\n${spring.process.lines.slice(-40).join('\n')}`);
  });
}
