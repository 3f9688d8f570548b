// `@confbus/contracts/published`: what a service needs to publish the contract its bindings make, without the
// validator (Ajv stays out of a client that only sends its schemas).
export { EVERY_APPLICATION, type Contract, type JsonSchema } from './contract.js';
export {
  contractOfPublished,
  jsonSchemaOf,
  publishedContract,
  schemaOfBindings,
  type BoundSchema,
  type PublishedContract,
  type StandardJsonSchemaSource,
} from './standard-schema.js';
