// @confbus/client/testing: the test double for applications' unit tests (see docs/client.md, "Testing").
export { TestConfig, createTestConfig, type TestConfigOptions } from './testing/test-config.js';
export type { TestValue, TestValues } from './testing/flatten-values.js';
