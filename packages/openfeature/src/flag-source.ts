/**
 * What the provider reads flags from: the part of `@confbus/client`'s `ConfigClient` it uses. A structural type,
 * so the client's in-memory test double (or any object with the same API) serves too.
 */
import type { ConfigClient } from '@confbus/client';

export type FlagSource = Pick<
  ConfigClient,
  'get' | 'getBoolean' | 'getNumber' | 'getString' | 'bind' | 'view' | 'status' | 'on' | 'off'
>;
