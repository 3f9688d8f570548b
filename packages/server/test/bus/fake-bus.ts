import type { ServerBus } from '../../src/bus/server-bus.js';
import { FakePublisher } from './fake-publisher.js';

/** In place of the server's bus: publishes into FakePublisher's record; joining the broker is a no-op. */
export class FakeBus extends FakePublisher implements ServerBus {
  readonly node = undefined;
  joined: string | undefined;

  async join(address: string): Promise<void> {
    this.joined = address;
  }

  async close(): Promise<void> {}
}
