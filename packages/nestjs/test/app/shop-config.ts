// The application's configuration types: a schema for the whole configuration and a namespace.
import { registerAs } from '@confbus/nestjs';
import { z } from 'zod';

export const shopSchema = z.object({
  greeting: z.object({ text: z.string().min(1), repeat: z.coerce.number().int().positive().default(1) }),
  shop: z.object({ currency: z.enum(['EUR', 'USD']), 'max-items': z.coerce.number().int() }),
});
export type ShopConfig = z.infer<typeof shopSchema>;

/** The `shop` namespace, validated on its own too. */
export const shopNamespace = registerAs('shop', (config) => {
  const shop = config.bind('shop', shopSchema.shape.shop);
  return { currency: shop.currency, maxItems: shop['max-items'] };
});
