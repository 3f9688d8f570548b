/**
 * Where the remote configuration sits among the local layers, decided as Spring Cloud's
 * PropertySourceBootstrapConfiguration decides it, from flags the *remote* configuration sets (Spring: "the
 * remote property source has to grant it permission"; a local value has no effect, and the client warns):
 * - by default, or with `allow-override: false`: remote above everything (arguments too);
 * - `allow-override: true` + `override-none: true`: remote below every local source (local wins everywhere);
 * - `allow-override: true` + `override-system-properties: false`: arguments, programmatic overrides and
 *   environment variables win; the remote still beats the settings file.
 * The defaults layer stays last in every case: it is for keys nobody else sets.
 */
import type { PropertyValue } from '@confbus/core';
import { uniformKey } from '@confbus/core/internal';
import type { PropertyLayer } from './config-snapshot.js';
import type { LocalLayers } from './local-layers.js';

export type RemotePlacement = 'first' | 'after-system' | 'last';

export const REMOTE_OVERRIDE_KEYS = [
  'spring.cloud.config.allow-override',
  'spring.cloud.config.override-none',
  'spring.cloud.config.override-system-properties',
] as const;

const UNIFORM = REMOTE_OVERRIDE_KEYS.map((key) => uniformKey(key));

/** The flags as the highest remote source that sets them gives them (relaxed spelling: `allowOverride` too). */
export function remotePlacement(remote: readonly PropertyLayer[]): RemotePlacement {
  const found: Array<boolean | undefined> = [undefined, undefined, undefined];
  for (const layer of remote) {
    for (const key of layer.keys()) {
      const index = UNIFORM.indexOf(uniformKey(key));
      if (index !== -1 && found[index] === undefined) found[index] = asBoolean(layer.get(key));
    }
  }
  const [allowOverride = true, overrideNone = false, overrideSystemProperties = true] = found;
  if (!allowOverride || (!overrideNone && overrideSystemProperties)) return 'first';
  return overrideNone ? 'last' : 'after-system';
}

function asBoolean(value: PropertyValue | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return undefined;
}

/** The layers in precedence order for a placement. */
export function placeRemote(
  placement: RemotePlacement,
  remote: readonly PropertyLayer[],
  local: LocalLayers,
): PropertyLayer[] {
  switch (placement) {
    case 'first':
      return [...remote, local.system, local.file, local.defaults];
    case 'after-system':
      return [local.system, ...remote, local.file, local.defaults];
    case 'last':
      return [local.system, local.file, ...remote, local.defaults];
  }
}
