// The test application's root module, made per test: where the config server is and where the actuator goes.
import { ManagementEndpointError, type ManagementEndpoint } from '@confbus/client';
import { ConfbusModule } from '@confbus/nestjs';
import { silentLogger } from '@confbus/core';
import { Module, type Type } from '@nestjs/common';
import { GreetingController } from './greeting.controller.js';
import { shopNamespace, shopSchema } from './shop-config.js';

/** An endpoint of the application's own: answers a POST's JSON body, refuses one without `message`. */
const echoEndpoint: ManagementEndpoint = {
  methods: ['POST'],
  handle: ({ body }) => {
    if (typeof body !== 'object' || body === null || !('message' in body)) {
      throw new ManagementEndpointError(422, 'echo needs a JSON body with a message');
    }
    return { status: 200, body };
  },
};

export interface ShopAppOptions {
  readonly serverUrl: string;
  readonly application: string;
  readonly cwd: string;
  readonly actuatorPath?: string;
}

export function shopAppModule(options: ShopAppOptions): Type<unknown> {
  @Module({
    imports: [
      ConfbusModule.forRootAsync({
        isGlobal: true,
        load: [shopNamespace],
        actuator: { path: options.actuatorPath ?? 'actuator', extraEndpoints: { echo: echoEndpoint } },
        useFactory: () => ({
          schema: shopSchema,
          start: {
            args: [
              `--spring.cloud.config.uri=${options.serverUrl}`,
              `--spring.application.name=${options.application}`,
              '--management.endpoints.web.exposure.include=refresh,health,env,echo',
            ],
            env: {},
            cwd: options.cwd,
            logger: silentLogger,
          },
        }),
      }),
    ],
    controllers: [GreetingController],
  })
  class ShopAppModule {}
  return ShopAppModule;
}
