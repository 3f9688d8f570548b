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
import { type TlsSources, loadTlsMaterial } from '@confbus/core/internal';

const tls = 'spring.cloud.config.tls';

export const clientTlsSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${tls}.enabled`,
    type: 'boolean',
    default: false,
    description: 'Use the key and trust stores below for https:// config server URIs',
  },
  {
    key: `${tls}.key-store`,
    type: 'string',
    aliases: [`${tls}.keyStore`],
    description:
      'Key store (PKCS12, JKS, or a PEM file with key and certificate) of the client certificate, for servers that require one (mutual TLS)',
  },
  {
    key: `${tls}.key-store-type`,
    type: 'string',
    default: 'PKCS12',
    aliases: [`${tls}.keyStoreType`],
    description: 'PKCS12 or JKS (recognised from the content either way)',
  },
  {
    key: `${tls}.key-store-password`,
    type: 'string',
    secret: true,
    aliases: [`${tls}.keyStorePassword`],
    description: 'Password of the key store',
  },
  {
    key: `${tls}.key-password`,
    type: 'string',
    secret: true,
    aliases: [`${tls}.keyPassword`],
    description: 'Password of the key (default: the key store password)',
  },
  {
    key: `${tls}.trust-store`,
    type: 'string',
    aliases: [`${tls}.trustStore`],
    description:
      "Trust store (PKCS12, JKS, or PEM CA certificates) the server's certificate must chain to; replaces Node's default roots",
  },
  {
    key: `${tls}.trust-store-type`,
    type: 'string',
    default: 'PKCS12',
    aliases: [`${tls}.trustStoreType`],
    description: 'PKCS12 or JKS (recognised from the content either way)',
  },
  {
    key: `${tls}.trust-store-password`,
    type: 'string',
    secret: true,
    aliases: [`${tls}.trustStorePassword`],
    description: 'Password of the trust store',
  },
];

/** What the settings name, or undefined when TLS settings are off (Node's defaults apply to https://). */
export function readClientTlsSources(settings: Settings): TlsSources | undefined {
  if (!settings.boolean(`${tls}.enabled`)) return undefined;
  const value = (name: string) => settings.optionalString(`${tls}.${name}`)?.trim() || undefined;
  const keyStore = value('key-store');
  const trustStore = value('trust-store');
  return {
    ...(keyStore === undefined
      ? {}
      : {
          keyStore: {
            location: keyStore,
            setting: `${tls}.key-store`,
            type: value('key-store-type'),
            password: settings.optionalString(`${tls}.key-store-password`),
            keyPassword: settings.optionalString(`${tls}.key-password`),
          },
        }),
    ...(trustStore === undefined
      ? {}
      : {
          trustStore: {
            location: trustStore,
            setting: `${tls}.trust-store`,
            type: value('trust-store-type'),
            password: settings.optionalString(`${tls}.trust-store-password`),
          },
        }),
  };
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
