// The public API of @confbus/contracts (see README.md): contracts, their checking against an environment, and
// the ways to make one (repository files, a service's bound schemas, Spring Boot's configuration metadata).
// I/O-free: callers read files and jars and hand over their text or bytes.
export {
  EVERY_APPLICATION,
  EXPECTED,
  type Contract,
  type JsonSchema,
  type ValueOrigin,
  type Violation,
} from './contract.js';
export { contractErrors } from './errors.js';
export { SchemaCompiler } from './schema-compiler.js';
export { effectiveConfiguration, type EffectiveConfiguration } from './effective-configuration.js';
export { validateEnvironment, type EnvironmentToCheck } from './validate-environment.js';
export {
  CONTRACTS_DIRECTORY,
  contractApplicationOf,
  contractPathOf,
  contractsFor,
  parseContract,
} from './repository-contracts.js';
export {
  contractOfPublished,
  jsonSchemaOf,
  publishedContract,
  schemaOfBindings,
  type BoundSchema,
  type PublishedContract,
  type StandardJsonSchemaSource,
} from './standard-schema.js';
export {
  contractOfSpringMetadata,
  mergeSpringMetadata,
  parseSpringMetadata,
  type ImportOptions,
  type SpringMetadata,
} from './spring-metadata.js';
export { isZipArchive, springMetadataOfJar } from './metadata-jar.js';
export { schemaOfJavaType } from './java-types.js';
export {
  checkTargets,
  isConfigPath,
  profilesActivating,
  stemOf,
  type CheckTarget,
  type TargetOptions,
} from './check-targets.js';
