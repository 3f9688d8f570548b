/**
 * Turns what the server (or the backup) sent into a snapshot: client metadata on top, the remote property
 * sources in their order placed among the local layers as the remote's override flags say (remote-placement.ts),
 * the defaults last, and `{cipher}` values decrypted into a layer above all.
 * Properties set by `busenv` events (Spring's "manager" source) sit above everything and outlive refreshes.
 */
import type { Environment, PropertyValue } from '@confbus/core';
import { decryptedLayer, type ClientDecryptor } from './cipher-values.js';
import type { ClientSettings } from '../client-settings.js';
import { ConfigSnapshot, mapLayer, type ConfigSourceKind } from './config-snapshot.js';
import type { LocalLayers } from './local-layers.js';
import { placeRemote, remotePlacement } from './remote-placement.js';

export class SnapshotFactory {
  readonly #busValues = new Map<string, string>();

  constructor(
    private readonly settings: ClientSettings,
    private readonly local: LocalLayers,
    private readonly decryptor: ClientDecryptor,
  ) {}

  /** A `busenv` event's properties: every snapshot built from now on carries them on top. */
  setBusValues(values: Readonly<Record<string, string>>): void {
    for (const [name, value] of Object.entries(values)) this.#busValues.set(name, value);
  }

  /** Throws when a `{cipher}` value cannot be decrypted and encrypt.fail-on-error is set. */
  fromEnvironment(env: Environment, source: Exclude<ConfigSourceKind, 'local'>): ConfigSnapshot {
    const clientInfo = new Map<string, PropertyValue>();
    if (env.version !== null) clientInfo.set('config.client.version', env.version);
    if (env.state !== null) clientInfo.set('config.client.state', env.state);
    const remote = env.propertySources.map((ps) =>
      mapLayer(`configserver:${ps.name}`, ps.source, ps.decryptedKeys),
    );
    const layers = [
      ...(this.#busValues.size > 0 ? [mapLayer('manager', new Map(this.#busValues))] : []),
      mapLayer('configClient', clientInfo),
      ...placeRemote(remotePlacement(remote), remote, this.local),
    ];
    const decrypted = decryptedLayer(layers, this.decryptor);
    return new ConfigSnapshot(decrypted ? [decrypted, ...layers] : layers, {
      source,
      name: env.name || this.settings.name,
      profiles: env.profiles.length > 0 ? env.profiles : this.settings.profiles,
      label: env.label,
      version: env.version,
      state: env.state,
    });
  }

  /** Neither the server nor a backup: the local settings alone. */
  localOnly(): ConfigSnapshot {
    return new ConfigSnapshot([this.local.system, this.local.file, this.local.defaults], {
      source: 'local',
      name: this.settings.name,
      profiles: this.settings.profiles,
      label: null,
      version: null,
      state: null,
    });
  }
}
