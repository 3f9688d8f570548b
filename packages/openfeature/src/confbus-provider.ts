/**
 * An OpenFeature server provider whose flags are configuration keys: flag `new-checkout` is the key
 * `features.new-checkout` of the application's configuration (the prefix is an option). Values are the same for
 * every evaluation context (no targeting): the reason is STATIC, CACHED while the client runs on its backup file,
 * STALE after a refresh failed. A refresh that changes flags emits PROVIDER_CONFIGURATION_CHANGED naming them.
 */
import {
  ConfigClient,
  type ConfigClientError,
  type ConfigClientOptions,
  type RefreshEvent,
} from '@confbus/client';
import {
  OpenFeatureEventEmitter,
  ProviderEvents,
  StandardResolutionReasons,
  type FlagMetadata,
  type JsonValue,
  type Provider,
  type ProviderMetadata,
  type ResolutionDetails,
  type ResolutionReason,
} from '@openfeature/server-sdk';
import { changedFlags, flagValues, type FlagValues } from './flag-changes.js';
import type { FlagSource } from './flag-source.js';
import { booleanOf, numberOf, objectOf, readFlag, stringOf, type RawFlag } from './flag-values.js';

export interface ConfbusProviderOptions {
  /**
   * Where the flags are: a started client (the application's, closed by the application), or the options to
   * start one with in `initialize` (then the provider owns it and closes it in `onClose`).
   */
  readonly client?: FlagSource;
  readonly start?: ConfigClientOptions;
  /** The key prefix of flags; default `features` (flag `x` is the key `features.x`; '' = every key is a flag). */
  readonly prefix?: string;
}

export const DEFAULT_FLAG_PREFIX = 'features';

export class ConfbusProvider implements Provider {
  readonly metadata: ProviderMetadata = { name: 'confbus' };
  readonly runsOn = 'server';
  readonly events = new OpenFeatureEventEmitter();

  readonly #startOptions: ConfigClientOptions | undefined;
  /** The prefix without its dot, as `bind` takes it. */
  readonly #root: string;
  /** The prefix as flag keys are joined to it. */
  readonly #prefix: string;
  #source: FlagSource | undefined;
  #owned = false;
  #flags: FlagValues = new Map();
  #stale = false;

  constructor(options: ConfbusProviderOptions = {}) {
    if (options.client && options.start) {
      throw new Error('ConfbusProvider: pass either `client` or `start`, not both');
    }
    this.#source = options.client;
    this.#startOptions = options.client ? undefined : (options.start ?? {});
    this.#root = (options.prefix ?? DEFAULT_FLAG_PREFIX).replace(/\.+$/, '');
    this.#prefix = this.#root === '' ? '' : `${this.#root}.`;
  }

  /** The client flags are read from (undefined before `initialize` started an owned one). */
  get client(): FlagSource | undefined {
    return this.#source;
  }

  /** Called by the SDK (`setProviderAndWait`): starts the client if the provider owns one, then follows refreshes. */
  async initialize(): Promise<void> {
    if (!this.#source) {
      this.#source = await ConfigClient.start(this.#startOptions);
      this.#owned = true;
    }
    this.#flags = flagValues(this.#source.view(), this.#root);
    this.#source.on('refresh', this.#onRefresh);
    this.#source.on('error', this.#onRefreshError);
  }

  async onClose(): Promise<void> {
    const source = this.#source;
    if (!source) return;
    source.off('refresh', this.#onRefresh);
    source.off('error', this.#onRefreshError);
    if (this.#owned && source instanceof ConfigClient) {
      this.#source = undefined;
      await source.close();
    }
  }

  readonly #onRefresh = (event: RefreshEvent): void => {
    const source = this.#source;
    if (!source) return;
    // No key changed: no flag did either (a placeholder's target is a key too).
    const flagsChanged = event.keys.length === 0 ? [] : this.#takeChangedFlags(source);
    if (this.#stale) {
      this.#stale = false;
      this.events.emit(ProviderEvents.Ready, { message: 'Configuration refreshed' });
    }
    if (flagsChanged.length > 0) {
      const version = source.status.version ?? undefined;
      this.events.emit(ProviderEvents.ConfigurationChanged, {
        flagsChanged,
        message: `Configuration refreshed${version ? ` to version ${version}` : ''}`,
      });
    }
  };

  #takeChangedFlags(source: FlagSource): string[] {
    const after = flagValues(source.view(), this.#root);
    const changed = changedFlags(this.#flags, after);
    this.#flags = after;
    return changed;
  }

  readonly #onRefreshError = (error: ConfigClientError): void => {
    this.#stale = true;
    this.events.emit(ProviderEvents.Stale, {
      message: `Refresh failed, flags are as before: ${error.message}`,
    });
  };

  async resolveBooleanEvaluation(flagKey: string): Promise<ResolutionDetails<boolean>> {
    return this.#resolve(flagKey, (source, flag) => booleanOf(source, flagKey, flag));
  }

  async resolveStringEvaluation(flagKey: string): Promise<ResolutionDetails<string>> {
    return this.#resolve(flagKey, (source, flag) => stringOf(source, flagKey, flag));
  }

  async resolveNumberEvaluation(flagKey: string): Promise<ResolutionDetails<number>> {
    return this.#resolve(flagKey, (source, flag) => numberOf(source, flagKey, flag));
  }

  async resolveObjectEvaluation<T extends JsonValue>(flagKey: string): Promise<ResolutionDetails<T>> {
    // The SDK's API is generic in T, the value is whatever JSON the configuration holds: the caller's T is trusted.
    return this.#resolve(flagKey, (_source, flag) => objectOf(flagKey, flag) as T);
  }

  /** Errors are thrown as the SDK's error classes; the SDK answers the default value with their code. */
  #resolve<T>(flagKey: string, typed: (source: FlagSource, flag: RawFlag) => T): ResolutionDetails<T> {
    const source = this.#source;
    // The SDK does not evaluate against a provider that is not ready; this is for a direct call.
    if (!source) throw new Error('ConfbusProvider is not initialized');
    const value = typed(source, readFlag(source, this.#prefix, flagKey));
    return { value, reason: this.#reason(source), flagMetadata: this.#metadata(source) };
  }

  #reason(source: FlagSource): ResolutionReason {
    const status = source.status;
    if (status.lastRefreshError !== undefined) return StandardResolutionReasons.STALE;
    if (status.source === 'backup') return StandardResolutionReasons.CACHED;
    return StandardResolutionReasons.STATIC;
  }

  #metadata(source: FlagSource): FlagMetadata {
    const { version, source: from } = source.status;
    return version ? { configSource: from, configVersion: version } : { configSource: from };
  }
}
