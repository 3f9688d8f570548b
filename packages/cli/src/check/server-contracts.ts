/**
 * The contracts running services published to a config server (`GET /actuator/contract-gate/published`): with
 * `confbus check --server URL` they are enforced beside the repository's, as the server's gate enforces both.
 */
import type { Contract } from '@confbus/contracts';
import type { ConfigServerReads } from './config-server-reads.js';

export async function publishedContracts(server: ConfigServerReads): Promise<Contract[]> {
  const answer = await server.get(
    '/actuator/contract-gate/published',
    {},
    'the published contracts',
    isPublished,
  );
  return answer.contracts;
}

function isPublished(body: unknown): body is { contracts: Contract[] } {
  const contracts = (body as { contracts?: unknown } | undefined)?.contracts;
  return (
    Array.isArray(contracts) &&
    contracts.every(
      (c: Partial<Contract> | null) =>
        typeof c?.application === 'string' &&
        typeof c.name === 'string' &&
        typeof c.schema === 'object' &&
        c.schema !== null,
    )
  );
}
