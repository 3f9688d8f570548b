/**
 * Wires rollouts on push (auto-rollouts.ts) on the default repository when rules are configured: the policy goes
 * first in the serving path (before the contract gate), and every upstream check that moved the refs (a poll, a
 * webhook's refresh, a request with refresh-rate 0) looks at each rule's branch at once.
 */
import type { Logger } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { configImpact } from '../impact/config-impact.js';
import { servedImpactSource } from '../impact/served-impact-source.js';
import type { ServedRepository } from '../repositories/served-repository.js';
import { AutoRollouts } from './auto-rollouts.js';
import type { AutoRolloutRule } from './auto-rollout-settings.js';
import type { RolloutEngine } from './rollout-engine.js';

/** Environments compared per push at most (the monitor's blast radius has its own bound). */
const MAX_ENVIRONMENTS = 2000;

export function installAutoRollouts(install: {
  readonly rules: readonly AutoRolloutRule[];
  readonly engine: RolloutEngine;
  readonly repository: ServedRepository | undefined;
  readonly logger: Logger;
}): AutoRollouts | undefined {
  const { rules, repository } = install;
  if (rules.length === 0) return undefined;
  const logger = install.logger.child({ component: 'auto-rollouts' });
  const refresh = repository?.mirror.refresh;
  const source = repository && servedImpactSource(repository);
  if (repository === undefined || refresh === undefined || source === undefined) {
    logger.warn(
      {},
      'Rollouts on push need a Git repository as the default one: confbus.server.rollouts.auto.* ignored',
    );
    return undefined;
  }
  const auto = new AutoRollouts({
    rules,
    engine: install.engine,
    logger,
    defaultLabel: async () => (await refresh.resolveFetched(null)).label,
    async changedApplications(from, to, only) {
      const impact = await configImpact(source, {
        revision: to,
        base: from,
        files: await source.changedPaths(from, to),
        ...(only ? { applications: only } : {}),
        maxEnvironments: MAX_ENVIRONMENTS,
      });
      if (impact.skipped > 0)
        logger.warn(
          { skipped: impact.skipped },
          'Rollout on push: environments beyond the bound not compared',
        );
      return [...new Set(impact.environments.map((environment) => environment.application))];
    },
  });
  repository.environments.serveCommitsFirstBy(auto);
  refresh.onChecked((changed) => {
    if (!changed) return;
    for (const rule of rules)
      refresh
        .resolveFetched(rule.branch)
        .then((head) => auto.observe(head.label, head.commit))
        .catch((error: unknown) =>
          logger.warn({ branch: rule.branch, reason: messageOf(error) }, 'Rollout on push: branch not read'),
        );
  });
  return auto;
}
