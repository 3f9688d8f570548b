/**
 * The client's part in the application's life: once the HTTP server listens, tell the client its port (a bus
 * member waiting for `server.port=0` to be known starts then); at shutdown, close the client the module started.
 */
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import type { Subscription } from 'rxjs';
import { messageOf } from '@confbus/core/internal';
import type { ClientHandle } from './module-options.js';

export class ClientLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  #listening: Subscription | undefined;

  constructor(
    private readonly handle: ClientHandle,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    // An application without an HTTP server (a standalone context) has no adapter and never listens.
    this.#listening = this.adapterHost.listen$?.subscribe(() => {
      this.#tellPort().catch((error: unknown) => {
        this.handle.client.logger.warn({}, `Could not give the bus the HTTP port: ${messageOf(error)}`);
      });
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.#listening?.unsubscribe();
    if (this.handle.owned) await this.handle.client.close();
  }

  async #tellPort(): Promise<void> {
    const { client } = this.handle;
    if (client.busState.state !== 'waiting-for-port') return;
    const address = this.adapterHost.httpAdapter?.getHttpServer()?.address() as AddressInfo | string | null;
    if (address && typeof address === 'object') await client.setLocalServerPort(address.port);
  }
}
