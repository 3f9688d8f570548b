/**
 * @confbus/bus is an optional peer of the client: it is loaded here, on first use, only when
 * `spring.cloud.bus.enabled=true`, so a client with the bus off never needs it nor the AMQP and Kafka clients
 * it brings. A missing package is a clear error naming the command that installs it.
 */
import type * as busPackage from '@confbus/bus';
import { ConfigClientError } from '../errors.js';

export type BusPackage = typeof busPackage;

const BUS_PACKAGE = '@confbus/bus';
let loading: Promise<BusPackage> | undefined;

/** The bus package, imported once per process; rejects with CONFBUS_BUS_NOT_INSTALLED when it is absent. */
export function loadBusPackage(): Promise<BusPackage> {
  loading ??= importBusPackage().catch((error: unknown) => {
    loading = undefined; // installed later (a test, a hot fix): the next start tries again
    throw error;
  });
  return loading;
}

async function importBusPackage(): Promise<BusPackage> {
  try {
    // A variable specifier: bundlers and type-only builds leave the optional peer alone.
    return (await import(/* webpackIgnore: true */ BUS_PACKAGE)) as BusPackage;
  } catch (error) {
    if (!isBusPackageMissing(error)) throw error;
    throw new ConfigClientError(
      'CONFBUS_BUS_NOT_INSTALLED',
      `spring.cloud.bus.enabled=true needs the bus package, which is not installed: run \`npm install ${BUS_PACKAGE}\` (same version as @confbus/client), or set spring.cloud.bus.enabled=false`,
      { cause: error },
    );
  }
}

/** Only the bus package itself missing, not one of its own dependencies (that is a broken install, said as is). */
function isBusPackageMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`'${BUS_PACKAGE}'`)
  );
}
