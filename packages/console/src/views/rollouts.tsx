/**
 * Staged rollouts, newest first: status, applications, A → B, the waves with the current one marked, the bake and
 * the latest decision. Each opens its details (#/rollouts/{id}). Re-read on rollout, rollout-status (a pause or
 * resume) and refresh events and, while a rollout is running or paused, every few seconds (a wave's bake).
 */
import { type Poll, useApi } from '../api.js';
import { CommitId, DataTable, Loader, Section, Time } from '../components.js';
import { link } from '../router.js';
import type { Rollout, Rollouts, Session } from '../types.js';
import { StartRolloutForm } from './rollout-start.js';

export const ROLLOUT_POLL_MS = 3_000;

export const isActive = (rollout: Pick<Rollout, 'status'>): boolean =>
  rollout.status === 'running' || rollout.status === 'paused';

const POLL: Poll<Rollouts> = { everyMs: ROLLOUT_POLL_MS, when: (data) => data.rollouts.some(isActive) };

export function RolloutsView() {
  const rollouts = useApi<Rollouts>('rollouts', {}, ['rollout', 'rollout-status', 'refresh'], POLL);
  const session = useApi<Session>('session', {});
  return (
    <Loader state={rollouts}>
      {(data) => (
        <Section title="Rollouts">
          {data.enabled && session.data ? <StartRolloutForm session={session.data} /> : null}
          {!data.enabled ? (
            <p class="muted" data-testid="rollouts-off">
              Rollouts are off on this server (confbus.server.rollouts.enabled=false).
            </p>
          ) : data.rollouts.length === 0 ? (
            <p class="muted" data-testid="no-rollouts">
              No rollout yet: start one above, with <code>confbus rollout start</code> or{' '}
              <code>POST /-/rollouts</code> (docs/rollouts.md).
            </p>
          ) : (
            <DataTable
              testId="rollouts"
              rowsLayout
              columns={['Started', 'Status', 'Applications', 'From → to', 'Waves', 'Bake', 'Last decision']}
            >
              {data.rollouts.map((rollout) => (
                <tr key={rollout.id} data-status={rollout.status}>
                  <td data-label="started">
                    <a href={link(['rollouts', rollout.id])}>
                      <Time iso={rollout.createdAt} />
                    </a>
                  </td>
                  <td data-label="status">
                    <StatusBadge status={rollout.status} />
                  </td>
                  <td data-label="applications">{rollout.applications.join(', ')}</td>
                  <td data-label="from → to">
                    <CommitId commit={rollout.from} /> → <CommitId commit={rollout.to} />
                  </td>
                  <td data-label="waves">
                    <WaveList rollout={rollout} />
                  </td>
                  <td data-label="bake">
                    {rollout.bakeSeconds} s
                    {rollout.bakeEndsAt ? (
                      <>
                        {' '}
                        (until <Time iso={rollout.bakeEndsAt} />)
                      </>
                    ) : null}
                  </td>
                  <td data-label="last decision">
                    {rollout.lastDecision.action}: {rollout.lastDecision.reason}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </Section>
      )}
    </Loader>
  );
}

/** The status with a colour: green while running or completed, red when rolled back, amber otherwise. */
export function StatusBadge({ status }: { status: Rollout['status'] }) {
  const tone =
    status === 'running' || status === 'completed'
      ? 'state-up'
      : status === 'rolled-back'
        ? 'state-stale'
        : 'state-unknown';
  return (
    <span class={`badge ${tone}`} data-testid="rollout-status">
      {status}
    </span>
  );
}

/** The waves in order, the current one (while the rollout decides) in bold. */
export function WaveList({ rollout }: { rollout: Rollout }) {
  return (
    <ol class="waves">
      {rollout.waves.map((wave, index) => {
        const current = index === rollout.wave && isActive(rollout);
        return (
          <li key={index} aria-current={current ? 'step' : undefined}>
            {current ? <strong>{wave.text} (current)</strong> : wave.text}
          </li>
        );
      })}
    </ol>
  );
}
