// Compile-time checks of ConfigService's typing, built with the app: `tsc -b` fails if a line expected to be an
// error compiles, or if an inferred type is not what is assigned. Never called.
import type { ConfigService, ConfigType } from '@confbus/nestjs';
import type { ShopConfig, shopNamespace } from './shop-config.js';

export function typedReads(
  validated: ConfigService<ShopConfig, true>,
  loose: ConfigService<ShopConfig>,
): void {
  const text: string = validated.get('greeting.text', { infer: true });
  const repeat: number = validated.get('greeting.repeat', { infer: true });
  const shop: { currency: 'EUR' | 'USD'; 'max-items': number } = validated.get('shop', { infer: true });
  const thrown: number = loose.getOrThrow('shop.max-items', { infer: true });
  const defaulted: string = loose.get('greeting.text', 'none', { infer: true });
  // @ts-expect-error: without validation a typed read may be undefined
  const maybe: string = loose.get('greeting.text', { infer: true });
  // @ts-expect-error: no such path in ShopConfig (the untyped read's type is its second argument's)
  const nope: string = validated.get('greeting.nope', { infer: true });
  // @ts-expect-error: the default must have the path's type
  loose.get('greeting.repeat', 'three', { infer: true });
  // Untyped reads are `any`, as with @nestjs/config; `get<T>` types them; a default types the result.
  const port: number = validated.get('server.port');
  const loosePort: number | undefined = loose.get('server.port');
  const fallback: number = loose.get('server.port', 8080);
  const host = validated.get<string>('db.host', 'localhost');
  const namespace: ConfigType<typeof shopNamespace> = { currency: 'EUR', maxItems: 1 };
  void [
    text,
    repeat,
    shop,
    thrown,
    defaulted,
    maybe,
    nope,
    port,
    loosePort,
    fallback,
    host.toUpperCase(),
    namespace,
  ];
}
