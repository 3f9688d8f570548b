/**
 * Contracts kept in the configuration repository, versioned with the configuration they guard:
 * `.confbus/contracts/{application}.schema.json`. `application.schema.json` guards every application, as
 * `application.yml` configures every application: each application checked must satisfy it and its own.
 */
import { ConfbusError } from '@confbus/core';
import { type Contract, EVERY_APPLICATION, type JsonSchema } from './contract.js';
import { contractErrors } from './errors.js';

export const CONTRACTS_DIRECTORY = '.confbus/contracts';
const CONTRACT_PATH = /^\.confbus\/contracts\/([^/]+)\.schema\.json$/;

/** The application a repository path holds the contract of, or undefined when it is no contract. */
export function contractApplicationOf(path: string): string | undefined {
  return CONTRACT_PATH.exec(path)?.[1];
}

/** The repository path of an application's contract. */
export function contractPathOf(application: string): string {
  return `${CONTRACTS_DIRECTORY}/${application}.schema.json`;
}

/** A contract from its text; `name` (its path) is what errors and violations show. */
export function parseContract(name: string, application: string, text: string): Contract {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new ConfbusError(
      contractErrors.CONFBUS_CONTRACT_INVALID,
      `${name}: not JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    throw new ConfbusError(
      contractErrors.CONFBUS_CONTRACT_INVALID,
      `${name}: the schema is not a JSON object`,
    );
  return { application, name, schema: schema as JsonSchema };
}

/** The contracts an application must satisfy: its own and those for every application. */
export function contractsFor(application: string, contracts: readonly Contract[]): Contract[] {
  return contracts.filter((c) => c.application === application || c.application === EVERY_APPLICATION);
}
