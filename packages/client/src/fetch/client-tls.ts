/**
 * TLS to the config server with the keys Spring's config client reads (`spring.cloud.config.tls.*`, Spring Cloud
 * Commons' TlsProperties): a key store for a client certificate (mutual TLS) and a trust store for the server's
 * CA. As in Spring these apply only with `tls.enabled=true`; without them `https://` URIs are checked against
 * Node's default roots (plus NODE_EXTRA_CA_CERTS). Beyond Spring, either store may be a PEM file — the custom CA
 * most people have is a `ca.crt`.
 */
import { readFile } from 'node:fs/promises';
import type { AgentOptions } from 'node:https';
import type { SettingSpec, Settings } from '@confbus/core';
import { type TlsSources, loadTlsMaterial, storeSources, storeSpecs } from '@confbus/core/internal';

const tls = 'spring.cloud.config.tls';

export const clientTlsSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${tls}.enabled`,
    type: 'boolean',
    default: false,
    description: 'Use the key and trust stores below for https:// config server URIs',
  },
  ...storeSpecs(tls, 'the config server', 'PKCS12'),
  {
    key: `${tls}.key-password`,
    type: 'string',
    secret: true,
    aliases: [`${tls}.keyPassword`],
    description: 'Password of the key (default: the key store password)',
  },
];

/** What the settings name, or undefined when TLS settings are off (Node's defaults apply to https://). */
export function readClientTlsSources(settings: Settings): TlsSources | undefined {
  if (!settings.boolean(`${tls}.enabled`)) return undefined;
  return storeSources(settings, tls, { keyPassword: true });
}

/** The https agent's TLS options; a store that cannot be read stops the start naming its setting. */
export async function loadClientTls(sources: TlsSources | undefined, cwd: string): Promise<AgentOptions> {
  if (sources === undefined) return {};
  const material = await loadTlsMaterial(sources, { read: readFile, cwd });
  return {
    ...(material.key === undefined ? {} : { key: material.key }),
    ...(material.cert === undefined ? {} : { cert: material.cert }),
    ...(material.ca === undefined ? {} : { ca: [...material.ca] }),
  };
}
