/** A label chooser (branches and tags of the repository); empty means the server's default label. */
import { useApi } from '../api.js';
import type { Label, Paged } from '../types.js';

export function LabelPicker({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (label: string) => void;
}) {
  const labels = useApi<Paged<Label>>('labels', { limit: 500 }, ['push']);
  return (
    <>
      <input
        id={id}
        list={`${id}-options`}
        value={value}
        placeholder="default label"
        autocomplete="off"
        onChange={(event) => onChange((event.target as HTMLInputElement).value.trim())}
      />
      <datalist id={`${id}-options`}>
        {(labels.data?.items ?? []).map((label) => (
          <option key={`${label.kind}:${label.name}`} value={label.name}>
            {label.kind}
          </option>
        ))}
      </datalist>
    </>
  );
}
