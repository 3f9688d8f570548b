/** The audit log's recent entries (GET ./api/audit): who did what, when, from where, and the outcome. */
import { useApi } from '../api.js';
import { DataTable, Loader, Section, Time } from '../components.js';
import type { AuditLog } from '../types.js';

export function AuditView() {
  const state = useApi<AuditLog>('audit', { limit: 100 }, ['refresh', 'push']);
  return (
    <Section title="Audit log">
      <Loader state={state}>
        {(data) =>
          !data.enabled ? (
            <p class="muted">The audit log is off (confbus.audit.enabled=false).</p>
          ) : data.entries.length === 0 ? (
            <p class="muted">Nothing audited since the server started.</p>
          ) : (
            <DataTable
              testId="audit"
              rowsLayout
              columns={['When', 'Who', 'Action', 'Target', 'From', 'Outcome']}
            >
              {data.entries.map((entry, index) => (
                <tr key={`${entry.time}-${index}`}>
                  <td data-label="when">
                    <Time iso={entry.time} />
                  </td>
                  <td data-label="who">{entry.principal}</td>
                  <td data-label="action">
                    <code>{entry.action}</code>
                  </td>
                  <td data-label="target">{entry.target ?? '—'}</td>
                  <td data-label="from">{entry.remoteAddress}</td>
                  <td data-label="outcome" class={entry.outcome === 'success' ? '' : 'warn'}>
                    {entry.outcome}
                    {entry.status === undefined ? '' : ` (${entry.status})`}
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </Loader>
    </Section>
  );
}
