/** The error codes raised by @confbus/contracts. Messages name the contract or file at fault, never a value. */
import { defineErrors } from '@confbus/core';

export const contractErrors = defineErrors({
  CONFBUS_CONTRACT_INVALID: {
    status: 400,
    description:
      'A contract is not a usable JSON Schema (2020-12): not JSON, not an object, or rejected by the schema compiler; the message names the contract and what is wrong',
  },
  CONFBUS_CONTRACT_METADATA: {
    status: 400,
    description:
      'Spring Boot configuration metadata cannot be imported: the file is not JSON, has no `properties` list, or a jar holds no META-INF/spring-configuration-metadata.json',
  },
});
