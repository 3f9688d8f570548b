/**
 * Start a rollout (operators): the applications, A (the commit served outside the waves), B (default: the label's
 * head), the waves and the bake (default: the server's), and a reason. Posted as POST /-/rollouts reads a plan; the
 * server checks it (400 naming the field) and the page opens the rollout started.
 */
import { useState } from 'preact/hooks';
import { postJson } from '../api.js';
import { ErrorBox } from '../components.js';
import { navigate } from '../router.js';
import type { RolloutDetails, Session } from '../types.js';

interface StartFields {
  applications: string;
  from: string;
  to: string;
  waves: string;
  bakeSeconds: string;
  reason: string;
}

const EMPTY: StartFields = { applications: '', from: '', to: '', waves: '', bakeSeconds: '', reason: '' };

export function StartRolloutForm({ session }: { session: Session }) {
  const [fields, setFields] = useState<StartFields>(EMPTY);
  const [error, setError] = useState<Error | undefined>();
  if (session.roles !== undefined && !session.roles.includes('operator')) return null;
  const field = (name: keyof StartFields, label: string, required = false, hint?: string) => (
    <>
      <label for={`start-${name}`}>{label}</label>
      <input
        id={`start-${name}`}
        name={name}
        required={required}
        placeholder={hint}
        value={fields[name]}
        onInput={(event) => setFields({ ...fields, [name]: (event.target as HTMLInputElement).value })}
      />
    </>
  );
  const start = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const { applications, from, to, waves, bakeSeconds, reason } = fields;
    const body = {
      applications: applications
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
      from: from.trim(),
      ...(to.trim() ? { to: to.trim() } : {}),
      ...(waves.trim() ? { waves: waves.trim() } : {}),
      ...(bakeSeconds.trim() ? { bakeSeconds: Number(bakeSeconds) } : {}),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    };
    try {
      const started = await postJson<RolloutDetails>('rollouts', body, {
        header: session.csrfHeader,
        token: session.csrfToken,
      });
      setFields(EMPTY);
      navigate(['rollouts', started.id]);
    } catch (failure) {
      setError(failure as Error);
    }
  };
  return (
    <form class="toolbar" data-testid="start-rollout" onSubmit={(event) => void start(event)}>
      {field('applications', 'Applications', true, 'orders, billing')}
      {field('from', 'From (A, served outside the waves)', true, 'commit')}
      {field('to', 'To (B; default: the label’s head)', false, 'commit')}
      {field('waves', 'Waves (default: the server’s)', false, '1,5%,25%,100%')}
      {field('bakeSeconds', 'Bake, seconds (default: the server’s)', false, '300')}
      {field('reason', 'Reason')}
      <button type="submit">Start the rollout</button>
      {error ? <ErrorBox error={error} /> : null}
    </form>
  );
}
