/**
 * One rollout: its plan and progress, its instances on B (canaries) beside those on A (controls) with their
 * health and error rate — the figures the judge compares — the decision log with its figures, and for operators
 * the actions its status allows. Re-read on rollout, rollout-status (a pause or resume) and refresh events and
 * every few seconds while it runs or is paused.
 */
import { type Poll, useApi } from '../api.js';
import { CommitId, DataTable, Loader, Section, Time } from '../components.js';
import { link } from '../router.js';
import type { RolloutDetails, RolloutGroup, RolloutInstance, Session } from '../types.js';
import { RolloutActions } from './rollout-actions.js';
import { ROLLOUT_POLL_MS, StatusBadge, WaveList, isActive } from './rollouts.js';

const POLL: Poll<RolloutDetails> = { everyMs: ROLLOUT_POLL_MS, when: isActive };

export function RolloutView({ id }: { id: string }) {
  const session = useApi<Session>('session', {});
  const rollout = useApi<RolloutDetails>(
    `rollouts/${encodeURIComponent(id)}`,
    {},
    ['rollout', 'rollout-status', 'refresh'],
    POLL,
  );
  return (
    <>
      <p>
        <a href={link(['rollouts'])}>← All rollouts</a>
      </p>
      <Loader state={rollout}>
        {(data) => (
          <>
            <Section title={`Rollout of ${data.applications.join(', ')}`}>
              <Plan rollout={data} />
              <Loader state={session}>
                {(csrf) => <RolloutActions rollout={data} session={csrf} onDone={rollout.reload} />}
              </Loader>
            </Section>
            <div class="grid">
              <Side title="Canaries (on B)" group={data.canaries} instances={data.instances} side="B" />
              <Side title="Controls (on A)" group={data.controls} instances={data.instances} side="A" />
            </div>
            <DecisionLog rollout={data} />
          </>
        )}
      </Loader>
    </>
  );
}

function Plan({ rollout }: { rollout: RolloutDetails }) {
  return (
    <dl class="facts" data-testid="rollout-plan">
      <dt>Status</dt>
      <dd>
        <StatusBadge status={rollout.status} />
      </dd>
      <dt>Id</dt>
      <dd>
        <code>{rollout.id}</code>
      </dd>
      <dt>Label</dt>
      <dd>{rollout.label ?? 'default'}</dd>
      <dt>A (from)</dt>
      <dd>
        <CommitId commit={rollout.from} />
      </dd>
      <dt>B (to)</dt>
      <dd>
        <CommitId commit={rollout.to} />
      </dd>
      <dt>Waves</dt>
      <dd>
        <WaveList rollout={rollout} />
      </dd>
      <dt>Bake</dt>
      <dd>
        {rollout.bakeSeconds} s per wave
        {rollout.bakeEndsAt ? (
          <>
            ; this wave until <Time iso={rollout.bakeEndsAt} />
          </>
        ) : null}
      </dd>
      <dt>Started</dt>
      <dd>
        <Time iso={rollout.createdAt} />
      </dd>
    </dl>
  );
}

function Side(props: { title: string; group: RolloutGroup; instances: RolloutInstance[]; side: 'A' | 'B' }) {
  const { group } = props;
  const instances = props.instances.filter((instance) => instance.side === props.side);
  return (
    <Section title={props.title}>
      <p data-testid={`side-${props.side}`}>
        {group.instances} instances, {group.reporting} reporting, {group.unhealthy} unhealthy;{' '}
        <strong>{group.errorsPerMinute} errors/min</strong>
      </p>
      {instances.length === 0 ? (
        <p class="muted">None seen yet.</p>
      ) : (
        <DataTable
          testId={`instances-${props.side}`}
          rowsLayout
          columns={['Instance', 'Served', 'Health', 'Errors/min', 'Last report']}
        >
          {instances.map((instance) => (
            <tr key={instance.id} data-instance={instance.id}>
              <td data-label="instance">{instance.id}</td>
              <td data-label="served">
                <CommitId commit={instance.servedCommit} />
              </td>
              <td data-label="health">
                {instance.health === null ? (
                  <span class="muted">no reports</span>
                ) : (
                  <span
                    class={`badge ${instance.health.status === 'UP' && !instance.health.rejected ? 'state-up' : 'state-stale'}`}
                  >
                    {instance.health.rejected ? 'rejected' : instance.health.status}
                  </span>
                )}
              </td>
              <td data-label="errors/min">{instance.health?.errorsPerMinute ?? '—'}</td>
              <td data-label="last report">
                <Time iso={instance.health?.lastReportAt} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}

function DecisionLog({ rollout }: { rollout: RolloutDetails }) {
  return (
    <Section title="Decision log">
      <DataTable testId="decisions" rowsLayout columns={['When', 'Decision', 'By', 'Why', 'Figures']}>
        {rollout.decisions.map((decision, index) => (
          <tr key={index}>
            <td data-label="when">
              <Time iso={decision.at} />
            </td>
            <td data-label="decision">{decision.action}</td>
            <td data-label="by">{decision.by}</td>
            <td data-label="why">{decision.reason}</td>
            <td data-label="figures" class="figures">
              {Object.entries(decision.figures)
                .map(([name, value]) => `${name}: ${value}`)
                .join(', ')}
            </td>
          </tr>
        ))}
      </DataTable>
    </Section>
  );
}
