// What the application serves: values read at start-up, read live, and through the namespace.
import { ConfigService, type ConfigChangeEvent, type ConfigHolder } from '@confbus/nestjs';
import { Controller, Get, Inject, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { shopNamespace, type ShopConfig } from './shop-config.js';

@Controller('greeting')
export class GreetingController implements OnModuleDestroy {
  readonly #startup: string;
  readonly #changes: ConfigChangeEvent[] = [];
  readonly #subscription: Subscription;

  constructor(
    private readonly config: ConfigService<ShopConfig, true>,
    @Inject(shopNamespace.KEY) private readonly shop: ConfigHolder<typeof shopNamespace>,
  ) {
    this.#startup = config.get('greeting.text', { infer: true });
    this.#subscription = config.changes$.subscribe((change) => this.#changes.push(change));
  }

  @Get()
  greeting() {
    return {
      startup: this.#startup,
      live: this.config
        .get('greeting.text', { infer: true })
        .repeat(this.config.get('greeting.repeat', { infer: true })),
      shop: this.shop.current,
      maxItems: this.config.get('shop.maxItems'),
      port: this.config.get<string>('server.port'),
    };
  }

  @Get('changes')
  changes() {
    return this.#changes;
  }

  onModuleDestroy(): void {
    this.#subscription.unsubscribe();
  }
}
