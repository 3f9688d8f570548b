/**
 * Checks one environment (one application and profiles, as the server builds it) against every contract that
 * applies to it; all of them must hold. Ajv's errors are turned into violations that name the Spring key, the
 * rule, and the file and line the value came from.
 */
import type { Environment } from '@confbus/core';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { type Contract, EXPECTED, type Violation } from './contract.js';
import { type EffectiveConfiguration, effectiveConfiguration } from './effective-configuration.js';
import type { SchemaCompiler } from './schema-compiler.js';

export interface EnvironmentToCheck {
  readonly application: string;
  readonly profiles: readonly string[];
  readonly environment: Environment;
}

export function validateEnvironment(
  target: EnvironmentToCheck,
  contracts: readonly Contract[],
  compiler: SchemaCompiler,
): Violation[] {
  if (contracts.length === 0) return [];
  const configuration = effectiveConfiguration(target.environment);
  const violations: Violation[] = [];
  for (const contract of contracts) {
    const errors = compiler.compile(contract)(configuration.instance());
    for (const problem of problemsOf(errors)) {
      const violation = violationOf(problem, configuration, contract);
      if (violation === undefined) continue;
      violations.push({
        application: target.application,
        profiles: target.profiles,
        contract: contract.name,
        ...violation,
      });
    }
  }
  return violations;
}

interface Problem {
  error: ErrorObject;
  /** For anyOf/oneOf: what each alternative wanted, joined into the message. */
  alternatives?: string[];
}

/**
 * Ajv reports a failed anyOf/oneOf as the combinator's error plus every alternative's; one problem is kept per
 * combinator, its message saying what each alternative wanted. `if` errors only say that `then`/`else` failed,
 * which is reported on its own.
 */
function problemsOf(errors: readonly ErrorObject[]): Problem[] {
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const problems: Problem[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const owner = combinators.find((c) => c !== error && error.schemaPath.startsWith(`${c.schemaPath}/`));
    if (owner !== undefined) continue;
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      const alternatives = errors
        .filter((e) => e.schemaPath.startsWith(`${error.schemaPath}/`) && e.keyword !== 'if')
        .map((e) => e.message ?? e.keyword);
      problems.push({ error, alternatives: [...new Set(alternatives)] });
    } else problems.push({ error });
  }
  return problems;
}

function violationOf(
  { error, alternatives }: Problem,
  configuration: EffectiveConfiguration,
  contract: Contract,
): Pick<Violation, 'key' | 'rule' | 'message' | 'origin'> | undefined {
  const at = configuration.keyAt(error.instancePath);
  const child = (name: string) => (at === '' ? name : `${at}.${name}`);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    return {
      key: child(String(params.missingProperty)),
      rule: 'required',
      message: 'is required but not set',
    };
  }
  if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
    const key = child(String(params.additionalProperty ?? params.unevaluatedProperty));
    const origin = configuration.originOf(key);
    return {
      key,
      rule: error.keyword,
      message: 'is not a key the contract allows (misspelt, or no longer used?)',
      ...(origin === undefined ? {} : { origin }),
    };
  }
  // A value only the running process knows (unresolved placeholder, {cipher}) is present, but not judged.
  if (configuration.isUnjudged(at)) return undefined;
  const origin = configuration.originOf(at);
  return {
    key: at,
    rule: error.keyword,
    message: messageOf(error, alternatives, nodeAt(contract.schema, error.schemaPath)),
    ...(origin === undefined ? {} : { origin }),
  };
}

/** Ajv's message (it never quotes the value, which may be a secret), with what the schema allows where useful. */
function messageOf(error: ErrorObject, alternatives: string[] | undefined, node: unknown): string {
  const expected = (node as Record<string, unknown> | undefined)?.[EXPECTED];
  if (typeof expected === 'string') return `must be ${expected}`;
  if (alternatives !== undefined && alternatives.length > 0) return alternatives.join(', or ');
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues))
    return `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}`;
  return error.message ?? `breaks the rule '${error.keyword}'`;
}

/**
 * The schema node holding the keyword that failed (`#/properties/t/anyOf` → the node of `t`), or undefined when
 * the path leads elsewhere (a `$ref` to another document).
 */
function nodeAt(schema: unknown, schemaPath: string): unknown {
  if (!schemaPath.startsWith('#/')) return undefined;
  let node = schema;
  for (const encoded of schemaPath.slice(2).split('/').slice(0, -1)) {
    const segment = decodeURIComponent(encoded).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
