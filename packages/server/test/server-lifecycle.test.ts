// Start and stop of a wired server on fakes, over a real loopback port: a step that fails after the port opened
// closes everything (the port included), and health never says UP for an enabled bus that has not joined.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import pino from 'pino';
import { reserveFreePort } from '@confbus/testkit/confbus-processes';
import { canConnect } from '@confbus/testkit/git-daemon';
import { resolveServerSettings } from '../src/index.js';
import { resolveServerConfig } from '../src/server-config.js';
import { type ConfigServer, wireConfigServer } from '../src/wire-config-server.js';
import { FakeBus } from './bus/fake-bus.js';
import { FakeClock } from './fake-clock.js';
import { FakeConfigRepository } from './repositories/fake-config-repository.js';

/** A bus whose join waits for `admit()` and then fails or succeeds as told. */
class GatedBus extends FakeBus {
  #joined: (() => void) | undefined;
  /** Resolves once the server has called join (its port is open by then). */
  readonly joining = new Promise<void>((resolve) => {
    this.#joined = resolve;
  });
  #admit: ((error?: Error) => void) | undefined;

  override async join(address: string): Promise<void> {
    const outcome = new Promise<Error | undefined>((resolve) => (this.#admit = resolve));
    this.#joined?.();
    const error = await outcome;
    if (error) throw error;
    await super.join(address);
  }

  admit(error?: Error): void {
    this.#admit?.(error);
  }
}

const servers: ConfigServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function wire(port: number, bus: FakeBus): Promise<ConfigServer> {
  const repository = new FakeConfigRepository({ 'application.yml': 'greeting: hello\n' });
  const server = await wireConfigServer({
    config: resolveServerConfig(
      resolveServerSettings({
        args: [`--server.port=${port}`, '--server.address=127.0.0.1', '--spring.cloud.bus.enabled=true'],
        env: {},
      }),
    ),
    logger: pino({ level: 'silent' }),
    clock: new FakeClock(),
    uri: 'fake://config',
    openMirror: () => ({ mirror: repository, close: async () => {} }),
    bus,
  });
  servers.push(server);
  return server;
}

describe('server lifecycle: a start that fails after the port opened', () => {
  it('joining the bus fails: listen rejects with the reason and the port is closed again', async () => {
    const port = await reserveFreePort();
    const bus = new GatedBus();
    const server = await wire(port, bus);
    const listening = server.listen();
    await bus.joining;
    assert.equal(await canConnect(port), true, 'the port is open while the bus joins');
    bus.admit(new Error('the broker refused us'));
    await assert.rejects(listening, /the broker refused us/);
    assert.equal(await canConnect(port), false, 'the port is closed after the failed start');
    await server.close(); // the failed start already closed it: a second close is the same one
  });

  it('health reports an enabled bus that has not joined as DOWN, not as absent', async () => {
    const port = await reserveFreePort();
    const bus = new GatedBus();
    const server = await wire(port, bus);
    const listening = server.listen();
    await bus.joining;
    const response = await fetch(`http://127.0.0.1:${port}/actuator/health`);
    const health = (await response.json()) as { components: Record<string, unknown> };
    assert.deepEqual(health.components.bus, { status: 'DOWN', details: { joined: false } });
    bus.admit();
    await listening;
  });
});
