/**
 * The server's settings read once, into typed values per area: `resolveServerConfig` is called at the top
 * (create-config-server.ts) and every part below takes its slice. Each area reads its own keys in its
 * `<area>-settings.ts`, so a setting's declaration and its one read sit side by side, and a mistyped key fails
 * the build instead of reading a silent `false`; lint keeps string-keyed reads out of every other file.
 */
import { type CompositeSettings, readCompositeSettings } from './repositories/composite-settings.js';
import type { Settings } from '@confbus/core';
import { effectiveSettings } from '@confbus/core/internal';
import { type ServerBusSettings, readServerBusSettings } from './bus/bus-settings.js';
import { type ConsoleSettings, readConsoleSettings } from './console/console-settings.js';
import {
  type ServerEncryptionSettings,
  readServerEncryptionSettings,
} from './encryption/encryption-settings.js';
import { type EnvironmentSettings, readEnvironmentSettings } from './environment/environment-settings.js';
import { type GateSettings, readGateSettings } from './gate/gate-settings.js';
import { type HealthSettings, readHealthSettings } from './health/health-settings.js';
import { type HttpSettings, readHttpSettings } from './http/http-settings.js';
import { type ServerTlsSettings, readServerTlsSettings } from './http/tls/tls-settings.js';
import { type MonitorSettings, readMonitorSettings } from './monitor/monitor-settings.js';
import { type NativeSettings, readNativeSettings } from './native/native-settings.js';
import { type RepositorySettings, readRepositorySettings } from './repositories/repository-settings.js';
import {
  type DatabaseBackendSettings,
  readDatabaseBackendSettings,
} from './repositories/backend-settings.js';
import { type RolloutSettings, readRolloutSettings } from './rollouts/rollout-settings.js';
import { type SecuritySettings, readSecuritySettings } from './security/security-settings.js';
import { type AuditSettings, readAuditSettings } from './audit/audit-settings.js';
import { type WatchSettings, readWatchSettings } from './watch/watch-settings.js';
import { NEXT_TICK_WARM_UP } from './support/next-tick-warm-up.js';

export interface ServerConfig {
  readonly http: HttpSettings;
  /** HTTPS (server.ssl.*); undefined for plain HTTP. */
  readonly tls: ServerTlsSettings | undefined;
  readonly security: SecuritySettings;
  /** The audit log (confbus.audit.*). */
  readonly audit: AuditSettings;
  readonly health: HealthSettings;
  readonly environment: EnvironmentSettings;
  readonly encryption: ServerEncryptionSettings;
  readonly monitor: MonitorSettings;
  /** The contract gate (confbus.contracts.gate.*). */
  readonly gate: GateSettings;
  readonly console: ConsoleSettings;
  readonly bus: ServerBusSettings;
  readonly native: NativeSettings;
  /** The repositories served: the default one, repos.*, where their mirrors live. */
  readonly repositories: RepositorySettings;
  /** spring.profiles.active=jdbc or redis: the database served instead of Git (undefined otherwise). */
  readonly database: DatabaseBackendSettings | undefined;
  /** spring.profiles.active=composite: the members served together (undefined otherwise). */
  readonly composite: CompositeSettings | undefined;
  /** The watch stream (confbus.watch.*): live config without a bus. */
  readonly watch: WatchSettings;
  /** Staged rollouts (confbus.server.rollouts.*). */
  readonly rollouts: RolloutSettings;
  /** Make process.nextTick hot as the server starts (support/next-tick-warm-up.ts). */
  readonly nextTickWarmUp: boolean;
  /** The non-default settings, secrets masked, for the start-up line. */
  readonly effective: Record<string, string>;
}

/** Reads every area's settings; throws a SettingsError naming the first bad setting. */
export function resolveServerConfig(settings: Settings): ServerConfig {
  return {
    http: readHttpSettings(settings),
    nextTickWarmUp: settings.boolean(NEXT_TICK_WARM_UP),
    tls: readServerTlsSettings(settings),
    security: readSecuritySettings(settings),
    audit: readAuditSettings(settings),
    health: readHealthSettings(settings),
    environment: readEnvironmentSettings(settings),
    encryption: readServerEncryptionSettings(settings),
    monitor: readMonitorSettings(settings),
    gate: readGateSettings(settings),
    console: readConsoleSettings(settings),
    bus: readServerBusSettings(settings),
    native: readNativeSettings(settings),
    repositories: readRepositorySettings(settings),
    database: readDatabaseBackendSettings(settings),
    composite: readCompositeSettings(settings),
    watch: readWatchSettings(settings),
    rollouts: readRolloutSettings(settings),
    effective: effectiveSettings(settings),
  };
}
