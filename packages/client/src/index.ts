export * from './client-settings.js';
export * from './config-client.js';
export * from './config-view.js';
export * from './errors.js';
export type { ConfigSourceKind } from './config-snapshot.js';
export type { Refreshable, RefreshableOptions, RefreshableFactory } from './refreshable.js';
export type { RemoteEnvironment, RemotePropertySource } from './remote-environment.js';
export * from './management-endpoints.js';
