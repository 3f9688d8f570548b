/** Diff: the effective-environment difference between two labels or commits (added, removed, changed keys). */
import { useApi } from '../api.js';
import { CommitId, DataTable, Loader, Section, ValueText } from '../components.js';
import { type Route, navigate } from '../router.js';
import type { Diff } from '../types.js';
import { LabelPicker } from './label-picker.js';

// A type, not an interface: it is passed where the router and the API want a Record of parameters.
type DiffQuery = {
  application: string;
  profiles: string;
  from: string;
  to: string;
};

export function DiffView({ route }: { route: Route }) {
  const application = route.params.get('application') ?? '';
  const profiles = route.params.get('profiles') ?? 'default';
  const from = route.params.get('from') ?? '';
  const to = route.params.get('to') ?? '';
  const query: DiffQuery = { application, profiles, from, to };
  const state = useApi<Diff>(application === '' ? undefined : 'diff', query, ['push']);
  return (
    <Section title="Diff">
      <DiffForm query={query} />
      {application === '' ? (
        <p class="muted">
          Choose an application. Without “From”, the diff shows what the push of “To” changed.
        </p>
      ) : (
        <Loader state={state}>
          {(diff) => (
            <>
              <DiffSides diff={diff} />
              {diff.added.length + diff.removed.length + diff.changed.length === 0 ? (
                <p data-testid="diff-empty">No effective property changed.</p>
              ) : (
                <DiffTable diff={diff} />
              )}
            </>
          )}
        </Loader>
      )}
    </Section>
  );
}

/** Application, profiles and the two labels; each change navigates. */
function DiffForm({ query }: { query: DiffQuery }) {
  const go = (patch: Partial<DiffQuery>) => navigate(['diff'], { ...query, ...patch });
  return (
    <form class="toolbar" onSubmit={(event) => event.preventDefault()}>
      <label for="diff-application">Application</label>
      <input
        id="diff-application"
        value={query.application}
        onChange={(event) => go({ application: (event.target as HTMLInputElement).value.trim() })}
      />
      <label for="diff-profiles">Profiles</label>
      <input
        id="diff-profiles"
        value={query.profiles}
        onChange={(event) => go({ profiles: (event.target as HTMLInputElement).value.trim() })}
      />
      <label for="diff-from">From</label>
      <LabelPicker id="diff-from" value={query.from} onChange={(next) => go({ from: next })} />
      <label for="diff-to">To</label>
      <LabelPicker id="diff-to" value={query.to} onChange={(next) => go({ to: next })} />
    </form>
  );
}

/** What is compared: the repository and the two sides. */
function DiffSides({ diff }: { diff: Diff }) {
  return (
    <p class="muted">
      {diff.application} ({diff.profiles.join(', ')}) in repository{' '}
      <span data-testid="served-by">{diff.repository}</span>: from{' '}
      {diff.from ? (
        <>
          <LabelText label={diff.from.label} commit={diff.from.commit} />
        </>
      ) : (
        'nothing (first commit)'
      )}{' '}
      to <LabelText label={diff.to.label} commit={diff.to.commit} />
    </p>
  );
}

/** One row per key added, removed or changed, in that order. */
function DiffTable({ diff }: { diff: Diff }) {
  return (
    <DataTable testId="diff" rowsLayout columns={['Change', 'Key', 'Before', 'After']}>
      {diff.added.map((row) => (
        <tr key={`a:${row.key}`} class="diff-added" data-change="added">
          <td>added</td>
          <KeyCell name={row.key} />
          <td />
          <td data-label="value">
            <ValueText value={row.value} />
          </td>
        </tr>
      ))}
      {diff.removed.map((row) => (
        <tr key={`r:${row.key}`} class="diff-removed" data-change="removed">
          <td>removed</td>
          <KeyCell name={row.key} />
          <td data-label="value">
            <ValueText value={row.value} />
          </td>
          <td />
        </tr>
      ))}
      {diff.changed.map((row) => (
        <tr key={`c:${row.key}`} class="diff-changed" data-change="changed">
          <td>changed</td>
          <KeyCell name={row.key} />
          <td data-label="before">
            <ValueText value={row.from} />
          </td>
          <td data-label="after">
            <ValueText value={row.to} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function KeyCell({ name }: { name: string }) {
  return (
    <th scope="row">
      <code>{name}</code>
    </th>
  );
}

/** A label and its commit; a label that is itself a commit id is shown once, shortened. */
function LabelText({ label, commit }: { label: string; commit: string }) {
  if (commit.startsWith(label.toLowerCase())) return <CommitId commit={commit} />;
  return (
    <>
      {label} <CommitId commit={commit} />
    </>
  );
}
